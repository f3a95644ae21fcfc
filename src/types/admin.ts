/** Shapes the plugin's admin routes answer, shared by the routes and the admin. */

/** A capture or refund of a PayBright payment (GET /admin/paybright/payments/:id/records). */
export type PayBrightMoneyRecord = {
  id: string
  kind: "capture" | "refund"
  trigger: "shipment" | "fulfillment" | "admin" | "cancellation" | "retry"
  /** Two-decimal amount. */
  amount: string
  currency_code: string
  state: "pending" | "done" | "refused" | "in_doubt"
  /** The x_reference sent to the lender, or the processor's idempotency key. */
  reference: string | null
  /** Medusa's Capture or Refund id. */
  medusa_id: string | null
  /** What the merchant reads: what happened and what to do. */
  message: string | null
  /** What the lender or processor answered. */
  lender_evidence: Record<string, string> | null
  resolved_by: string | null
  resolved_at: string | null
  created_at: string
}
