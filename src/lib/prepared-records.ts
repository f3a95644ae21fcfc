import type { PayBrightRecordsReader } from "../modules/paybright/records"

/**
 * Whether the order-cancellation guard prepared the void of this payment (src/workflows):
 * the merchant is cancelling its order, not Medusa undoing a completion.
 */
export async function cancellationPrepared(records: PayBrightRecordsReader, paymentId: string): Promise<boolean> {
  const prepared = await records.listPayBrightMoneyRecords(
    { payment_id: paymentId, kind: "void", trigger: "order_canceled", medusa_id: null, state: "pending" },
    { take: 1, select: ["id"] }
  )
  return prepared.length > 0
}
