import type { PayBrightMoneyRecord } from "./admin-types"
import { lenderAmount } from "./lender-cents"
import { isSaid } from "./texts/said"
import type { MoneyRecordRow } from "../modules/paybright/money-record-types"

/** A record as the admin reads it. */
export function toMoneyRecord(row: MoneyRecordRow): PayBrightMoneyRecord {
  const date = (value: Date | string | null) => (value ? new Date(value).toISOString() : null)
  return {
    id: row.id,
    kind: row.kind,
    trigger: row.trigger,
    amount: lenderAmount(row.amount as never),
    currency_code: row.currency_code,
    state: row.state,
    reference: row.reference,
    medusa_id: row.medusa_id,
    message: row.message,
    said: isSaid(row.said) ? row.said : null,
    lender_evidence: row.lender_evidence,
    resolved_by: row.resolved_by,
    resolved_at: date(row.resolved_at),
    retry_of: row.retry_of,
    fulfillment_id: row.fulfillment_id,
    created_at: date(row.created_at)!,
  }
}
