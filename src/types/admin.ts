/** Types the admin routes answer, shared with the admin's widgets and pages. */

/** A contract the lender approved: `GET /admin/paybright/approvals`. */
export type PayBrightApprovalRecord = {
  id: string
  contract: string
  session_id: string
  cart_id: string | null
  order_id: string | null
  amount: string
  currency_code: string
  state: "approved" | "ordered" | "orphaned" | "handled"
  reason: string | null
  created_at: string
}
