import { model } from "@medusajs/framework/utils"

/**
 * One capture or refund of a PayBright payment, for every trigger: a parcel shipped, an admin's
 * capture or refund, an order cancelled, a retry. Written with Medusa's Capture or Refund id
 * before the lender is called, and settled with the outcome and the lender's evidence. A record
 * `in_doubt` blocks every further capture and refund of its payment until a person resolves it.
 */
export const PayBrightMoneyRecord = model.define("paybright_money_record", {
  id: model.id({ prefix: "pbrec" }).primaryKey(),
  kind: model.enum(["capture", "refund"]),
  trigger: model.enum(["shipment", "fulfillment", "admin", "cancellation", "retry"]),
  /** `shipment:<fulfillment id>` for the first automatic capture of a parcel: unique, so a redelivered event finds it. */
  idempotency_key: model.text().unique().nullable(),
  payment_id: model.text().index(),
  order_id: model.text().index().nullable(),
  fulfillment_id: model.text().nullable(),
  /** The lender's contract (x_gateway_reference). */
  contract: model.text().nullable(),
  amount: model.bigNumber(),
  currency_code: model.text(),
  state: model.enum(["pending", "done", "refused", "in_doubt"]).default("pending"),
  /** The x_reference sent to the lender, or the processor's idempotency key for a virtual card. */
  reference: model.text().nullable(),
  /** Medusa's Capture or Refund id, written before the lender is called. */
  medusa_id: model.text().index().nullable(),
  /** What the merchant reads about this record, written by src/messages. */
  message: model.text().nullable(),
  /** What the lender or processor answered: x_timestamp, x_message, the echoes, or the charge id. */
  lender_evidence: model.json().nullable(),
  resolved_by: model.text().nullable(),
  resolved_at: model.dateTime().nullable(),
  /** The record this one retries. */
  retry_of: model.text().nullable(),
})
