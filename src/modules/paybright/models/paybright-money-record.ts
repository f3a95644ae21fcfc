import { model } from "@medusajs/framework/utils"

/**
 * One capture, refund or void of a PayBright contract, for every trigger: a parcel shipped, an
 * admin's capture or refund, an order cancelled, an orphaned approval voided, a retry. Written
 * with Medusa's id (Capture, Refund, or the cancelled Payment) before the lender is called, and
 * concluded with the outcome and the lender's evidence. A record `in_doubt` blocks every further
 * movement of its payment until a person resolves it.
 */
export const PayBrightMoneyRecord = model.define("paybright_money_record", {
  id: model.id({ prefix: "pbrec" }).primaryKey(),
  kind: model.enum(["capture", "refund", "void"]),
  trigger: model.enum(["shipment", "fulfillment", "admin", "order_canceled", "orphan", "retry"]),
  /** `parcel:<fulfillment id>` for the first automatic capture of a parcel: unique, so a redelivered event (or another moment's) finds it. */
  idempotency_key: model.text().unique().nullable(),
  /** None for the void of an orphaned approval: no Medusa payment was ever made for it. */
  payment_id: model.text().index().nullable(),
  order_id: model.text().index().nullable(),
  fulfillment_id: model.text().nullable(),
  /** The lender's contract (x_gateway_reference). */
  contract: model.text().nullable(),
  /** What moves at the lender (or on the card): whole cents, by the rule of src/lib/lender-cents.ts. */
  amount: model.bigNumber(),
  /** Medusa's exact amount for the Capture or Refund (a taxed remainder carries fractions of a cent). */
  medusa_amount: model.bigNumber().nullable(),
  currency_code: model.text(),
  state: model.enum(["pending", "done", "refused", "in_doubt"]).default("pending"),
  /** The x_reference sent to the lender, or the processor's idempotency key for a virtual card. */
  reference: model.text().nullable(),
  /** Medusa's Capture or Refund id, written before the lender is called. */
  medusa_id: model.text().index().nullable(),
  /** What the merchant reads about this record, in English, written by src/lib. */
  message: model.text().nullable(),
  /** The same sentence as facts (src/lib/texts/said.ts), for the admin to write in its language. */
  said: model.json().nullable(),
  /** What the lender or processor answered: x_timestamp, x_message, the echoes, or the charge id. */
  lender_evidence: model.json().nullable(),
  resolved_by: model.text().nullable(),
  resolved_at: model.dateTime().nullable(),
  /** The record this one retries. */
  retry_of: model.text().nullable(),
})
