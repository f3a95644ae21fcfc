import { onOneApp } from "../helpers/one-app"
import { moneyMovesOnce } from "./money-moves-once.suite"
import { voidContract } from "./void-contract.suite"

jest.setTimeout(600_000)

/**
 * The suites that walk the lender's faults, on one Medusa app with a short client timeout, so that
 * a "slow" lender is slower than it in a second or two, and a short wait for the payment's lock.
 */
onOneApp({ decision: "approve", callback: { enabled: false } }, [moneyMovesOnce, voidContract], {
  PAYBRIGHT_TIMEOUT_MS: "1500",
  PAYBRIGHT_LOCK_WAIT_SECONDS: "2",
})
