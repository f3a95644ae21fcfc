import { onOneApp } from "../helpers/one-app"
import { adminSettings } from "./admin-settings.suite"
import { completionFailures } from "./completion-failures.suite"
import { keptPayment } from "./kept-payment.suite"
import { killedMidCapture } from "./killed-mid-capture.suite"
import { salesTax } from "./sales-tax.suite"

jest.setTimeout(300_000)

/**
 * The suites that ask for nothing but a store and a lender that approves, and that calls back only
 * when a test delivers, on one Medusa app. The admin's settings run last: what they save stays in
 * the app's memory until its next read of the settings.
 */
onOneApp({ decision: "approve", callback: { enabled: false } }, [
  salesTax,
  completionFailures,
  keptPayment,
  killedMidCapture,
  adminSettings,
])
