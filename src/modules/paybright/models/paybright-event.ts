import { model } from "@medusajs/framework/utils"

/**
 * What happened to a PayBright payment or contract, one row per event: the order panel's timeline
 * and the audit trail of card reveals, in-doubt resolutions and settings changes. The message is
 * short and written for the merchant; nothing secret (token, PAN, CVV) is ever stored here.
 */
export const PayBrightEvent = model.define("paybright_event", {
  id: model.id({ prefix: "pbevt" }).primaryKey(),
  /** What kind of event: `approval.verified`, `capture.in_doubt`, `card.revealed`, `settings.changed`, … */
  kind: model.text().index(),
  payment_id: model.text().index().nullable(),
  order_id: model.text().index().nullable(),
  /** The lender's contract (x_gateway_reference), when the event concerns one. */
  contract: model.text().index().nullable(),
  /** One sentence a merchant can read. */
  message: model.text(),
  /** Who did it: an admin user id, or `system` for the plugin's own work, `lender` for the lender's. */
  actor: model.text().default("system"),
  /** Facts behind the event (amounts, references, the lender's evidence); never a secret. */
  details: model.json().nullable(),
})
