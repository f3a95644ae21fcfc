import { checkout } from "./checkout.suite"
import { completionFailures } from "./completion-failures.suite"
import { deferredPayment } from "./deferred-payment.suite"
import { onDefaultStore } from "./default-store"
import { keptPayment } from "./kept-payment.suite"
import { medusaInternals } from "./medusa-internals.suite"
import { salesTax } from "./sales-tax.suite"
import { setupCanada } from "./setup-canada.suite"

jest.setTimeout(300_000)

/** The default store (./default-store.ts), from its setup to a placed order, and completions that fail. */
onDefaultStore([medusaInternals, setupCanada, checkout, salesTax, deferredPayment, completionFailures, keptPayment])
