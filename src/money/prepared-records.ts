import type PayBrightModuleService from "../modules/paybright/service"
import { sameMedusaAmount } from "./lender-cents"
import { medusaAmountOf } from "./money-record-types"
import type { MoneyKind, MoneyRecordRow } from "./money-record-types"

/**
 * A capture the plugin's own workflows start (a parcel shipped, a retry) is written here, before
 * Medusa is asked to capture: pending, with no Medusa id yet, or refused with why it was not
 * started. Medusa then calls the provider, whose openAttempt (money-attempt.ts) claims the pending
 * record through claimablePreparedRecord below, by payment, kind and Medusa's amount, and puts
 * Medusa's Capture id on it. Both halves of that handshake live in this file.
 */
export async function writePreparedCapture(
  records: PayBrightModuleService,
  fields: Record<string, unknown>,
  outcome: { state: "pending" } | { state: "refused"; message: string }
): Promise<MoneyRecordRow> {
  return (await records.createPayBrightMoneyRecords({ ...fields, ...outcome } as never)) as unknown as MoneyRecordRow
}

/** The pending record written by writePreparedCapture for this movement, if any: same payment, kind and amount. */
export async function claimablePreparedRecord(
  records: PayBrightModuleService,
  movement: { paymentId: string; kind: MoneyKind; medusaAmount: string }
): Promise<MoneyRecordRow | undefined> {
  const [latest] = (await records.listPayBrightMoneyRecords(
    { payment_id: movement.paymentId, kind: movement.kind, medusa_id: null, state: "pending" },
    { order: { created_at: "DESC" }, take: 1 }
  )) as unknown as MoneyRecordRow[]
  return latest && sameMedusaAmount(medusaAmountOf(latest), movement.medusaAmount) ? latest : undefined
}

/**
 * Whether the order-cancellation guard prepared the void of this payment (src/workflows/payment-guard):
 * the merchant is cancelling its order, not Medusa undoing a completion.
 */
export async function cancellationPrepared(records: PayBrightModuleService, paymentId: string): Promise<boolean> {
  const prepared = await records.listPayBrightMoneyRecords(
    { payment_id: paymentId, kind: "void", trigger: "order_canceled", medusa_id: null, state: "pending" },
    { take: 1, select: ["id"] }
  )
  return prepared.length > 0
}
