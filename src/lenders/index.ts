import type { Lender } from "./lender"
import { paybright } from "./paybright/api"

/**
 * The lender the plugin runs on. The provider, the lender result's workflow, the movers and the
 * lock's lease reach it by this one name and the `Lender` interface, so a second lender is a
 * folder beside `paybright/` and a choice here.
 */
export const lender: Lender = paybright
