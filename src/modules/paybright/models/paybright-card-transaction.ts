import { model } from "@medusajs/framework/utils"

/**
 * A charge or refund on a contract's virtual card at the merchant's card processor, one row per
 * movement, written under the payment's lock. A refund spread over several charges is one row per
 * charge it touched, each written as it succeeds. Never holds card data.
 */
export const PayBrightCardTransaction = model.define("paybright_card_transaction", {
  id: model.id({ prefix: "pbcard" }).primaryKey(),
  payment_id: model.text().index(),
  kind: model.enum(["charge", "refund"]),
  processor: model.text(),
  /** The processor's id for this charge or refund, once it answered. */
  processor_id: model.text().nullable(),
  /** For a refund: the processor id of the charge it goes back to. */
  charge_id: model.text().nullable(),
  amount: model.bigNumber(),
  /** Medusa's Capture id (charge) or Refund id (refund). */
  medusa_id: model.text().index(),
  /** The key the processor deduplicates this movement by. */
  idempotency_key: model.text().unique(),
  state: model.enum(["pending", "done", "refused", "in_doubt"]).default("pending"),
})
