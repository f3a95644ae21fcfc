import { model } from "@medusajs/framework/utils"

/**
 * A capture the plugin makes by itself (at shipment or fulfillment): one row per trigger, so a
 * redelivered event or a concurrent one finds the work done. A failed capture stays here, with
 * the lender's words, until it is retried.
 */
export const PayBrightCapture = model.define("paybright_capture", {
  id: model.id({ prefix: "pbcap" }).primaryKey(),
  /** `shipment:<fulfillment id>` or `fulfillment:<fulfillment id>`. */
  idempotency_key: model.text().unique(),
  payment_id: model.text().index(),
  order_id: model.text().index(),
  fulfillment_id: model.text(),
  trigger: model.enum(["shipment", "fulfillment"]),
  amount: model.bigNumber(),
  currency_code: model.text(),
  status: model.enum(["pending", "captured", "failed"]).default("pending"),
  attempts: model.number().default(0),
  last_error: model.text().nullable(),
  capture_id: model.text().nullable(),
})
