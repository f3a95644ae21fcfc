import { SIMULATOR_TEST_ACCOUNT } from "../../src/lenders/paybright/simulator"
import { onOneApp, type AppSuite } from "../helpers/one-app"
import { SECOND_ACCOUNT } from "./payment-channel.suite"

/**
 * The store most suites ask for: nothing but a store and the lender's simulator, on one Medusa
 * app per spec file. The lender approves at once and calls back only when a test delivers, unless
 * a suite asks otherwise; it knows a second merchant account, for the admin to switch to. Beside
 * the default PayBright registration, the app has the ones some suites pay with: two that capture
 * at fulfillment or never by themselves, one paid through the virtual card by a person at a
 * terminal, and another method whose authorization is deferred. A suite's store offers only the
 * ones it names. Its suites are spread over two spec files, so that two workers run them.
 */
export function onDefaultStore(suites: AppSuite[]) {
  onOneApp(
    { decision: "approve", callback: { enabled: false }, accounts: [SIMULATOR_TEST_ACCOUNT, SECOND_ACCOUNT] },
    suites,
    {
      PAYBRIGHT_STOREFRONT_URL: "http://storefront.test",
      PAYBRIGHT_CAPTURE_ON_PROVIDERS: "1",
      PAYBRIGHT_MANUAL_PROVIDER: "1",
      PAYBRIGHT_DEFERRED_PROVIDER: "1",
    }
  )
}
