import type PayBrightModuleService from "../modules/paybright/service"
import { sameMedusaAmount } from "./lender-cents"
import { medusaAmountOf } from "../modules/paybright/money-record-types"
import type { MoneyKind, MoneyRecordRow } from "../modules/paybright/money-record-types"

/**
 * The pending record the plugin's own workflows wrote ahead of this movement (a parcel shipped, a
 * retry, an order cancelled: the service's prepareMoneyRecord), if any: same payment, kind and
 * Medusa's amount. The provider's openAttempt (money-attempt.ts) claims it, putting Medusa's id on it.
 */
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
