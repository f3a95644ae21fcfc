import type { MoneyRecordRow } from "../modules/paybright/money-record-types"
import type { PayBrightAttentionAction } from "../types/admin"

/**
 * What a merchant can do about a capture, refund or release record, wherever the admin shows it:
 * resolve what is in doubt; retry a refused capture or release nobody retried yet; resolve a
 * refused release as released once the contract is cancelled in the PayBright portal (a release
 * the lender's API could not even be asked for, having no reference, can only be resolved so).
 */
export function recordActions(
  row: Pick<MoneyRecordRow, "kind" | "state" | "reference">,
  retried: boolean
): PayBrightAttentionAction[] {
  if (row.state === "in_doubt") return ["resolve"]
  if (row.state !== "refused" || retried) return []
  if (row.kind === "capture") return ["retry_capture"]
  if (row.kind === "void") return row.reference ? ["retry_release", "resolve"] : ["resolve"]
  return []
}
