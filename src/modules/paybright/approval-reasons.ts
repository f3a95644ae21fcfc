/** Why an approved contract has no order. */
export type OrphanReason =
  | "session_replaced"
  | "cart_changed"
  | "completion_failed"
  | "not_placed"
  | "payment_cancelled"
  | "card_unavailable"
  | "second_contract"
  | "auto_capture_account"
  | UnusableResult

/** Signed results the store cannot use: recorded so no contract vanishes, never voided by the plugin. */
export const UNUSABLE_RESULTS = ["request_fields", "test_mismatch", "unknown_result"] as const
export type UnusableResult = (typeof UNUSABLE_RESULTS)[number]

/**
 * Orphans the plugin never voids by itself: the unusable results, and approvals it could not
 * place for reasons of its own (a crash, a lock, a dropped connection) past the grace period, which
 * nothing about the cart refused: a person decides whether the shopper's loan is voided.
 */
export const KEPT_FOR_A_PERSON: readonly string[] = [...UNUSABLE_RESULTS, "not_placed"]

/** Whether a delivery's result replaces the row of its contract: a usable result after an unusable one. */
export function supersedes(
  existing: { state: string; reason?: string | null },
  input: { orphan_reason?: string | null }
): boolean {
  const unusable = (reason: string | null | undefined) => (UNUSABLE_RESULTS as readonly string[]).includes(reason ?? "")
  return existing.state === "orphaned" && unusable(existing.reason) && !unusable(input.orphan_reason)
}
