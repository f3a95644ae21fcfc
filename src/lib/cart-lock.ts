/**
 * The lock every decision about an approval takes: its cart's, the very key Medusa's completion
 * takes, so no order is placed meanwhile (an approval recorded without a cart locks its session).
 */
export function approvalLockKey(approval: { cart_id: string | null; session_id: string }): string {
  return approval.cart_id ?? `paybright-approval:${approval.session_id}`
}
