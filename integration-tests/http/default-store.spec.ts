import { SIMULATOR_TEST_ACCOUNT } from "../../src/lenders/paybright/simulator"
import { onOneApp } from "../helpers/one-app"
import { adminSettings } from "./admin-settings.suite"
import { captureAtShipment } from "./capture-at-shipment.suite"
import { captureRace } from "./capture-race.suite"
import { checkout } from "./checkout.suite"
import { completionFailures } from "./completion-failures.suite"
import { deferredPayment } from "./deferred-payment.suite"
import { keptPayment } from "./kept-payment.suite"
import { killedMidCapture } from "./killed-mid-capture.suite"
import { medusaInternals } from "./medusa-internals.suite"
import { orderChanges } from "./order-changes.suite"
import { paymentChannel, SECOND_ACCOUNT } from "./payment-channel.suite"
import { salesTax } from "./sales-tax.suite"
import { setupCanada } from "./setup-canada.suite"

jest.setTimeout(300_000)

/**
 * The suites that ask for nothing but a store and the lender's simulator, on one Medusa app. The
 * lender approves at once and calls back only when a test delivers, unless a suite asks
 * otherwise; it knows a second merchant account, for the admin to switch to. Beside the default
 * PayBright registration, the app has the ones some suites pay with: two that capture at
 * fulfillment or never by themselves, one paid through the virtual card by a person at a
 * terminal, and another method whose authorization is deferred. A suite's store offers only the
 * ones it names. The suites that change the settings in the admin run last: what they save stays
 * in the app's memory until its next read of the settings.
 */
onOneApp(
  { decision: "approve", callback: { enabled: false }, accounts: [SIMULATOR_TEST_ACCOUNT, SECOND_ACCOUNT] },
  [
    medusaInternals,
    setupCanada,
    checkout,
    salesTax,
    captureAtShipment,
    orderChanges("in_store"),
    deferredPayment,
    completionFailures,
    keptPayment,
    killedMidCapture,
    captureRace("postgres"),
    paymentChannel,
    adminSettings,
  ],
  {
    PAYBRIGHT_STOREFRONT_URL: "http://storefront.test",
    PAYBRIGHT_CAPTURE_ON_PROVIDERS: "1",
    PAYBRIGHT_MANUAL_PROVIDER: "1",
    PAYBRIGHT_DEFERRED_PROVIDER: "1",
  }
)
