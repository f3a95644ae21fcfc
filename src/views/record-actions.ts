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

type RefusalFacts = Pick<MoneyRecordRow, "id" | "kind" | "state" | "retry_of" | "payment_id"> & {
  created_at: Date | string
}

/**
 * The refused captures and releases still open among `records` (a payment's, or any set holding
 * the records that could close them): nobody retried them and, for a capture, no capture of the
 * same payment was made after it (a retry, Medusa's own Capture payment, the store's capture of a
 * parcel whose event was lost): what it was to move has moved another way, or can be captured
 * as the remainder.
 */
export function openRefusals<T extends RefusalFacts>(records: T[]): T[] {
  const retried = new Set(records.map((record) => record.retry_of).filter(Boolean))
  const capturedAfter = (refused: T) =>
    records.some(
      (other) =>
        other.kind === "capture" &&
        other.state === "done" &&
        other.payment_id === refused.payment_id &&
        new Date(other.created_at).getTime() > new Date(refused.created_at).getTime()
    )
  return records.filter(
    (record) =>
      record.state === "refused" && !retried.has(record.id) && !(record.kind === "capture" && capturedAfter(record))
  )
}
