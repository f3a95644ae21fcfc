/**
 * The lock every decision about an approval takes: its cart's, the very key Medusa's completion
 * takes, so no order is placed meanwhile (an approval recorded without a cart locks its session).
 */
export function approvalLockKey(approval: { cart_id: string | null; session_id: string }): string {
  return approval.cart_id ?? sessionApprovalsLockKey(approval.session_id)
}

/**
 * The lock an approval is recorded under: its payment session's, so two contracts approved for one
 * session are never both taken for its payment (the second is recorded as an orphan).
 */
export function sessionApprovalsLockKey(sessionId: string): string {
  return `paybright-approval:${sessionId}`
}
