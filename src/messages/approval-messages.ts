import { forLog } from "../lender/log-text"
import type { OrphanReason } from "../modules/paybright/approval-reasons"
import { moneyText } from "./money-text"

const WHAT_HAPPENED: Record<OrphanReason, string> = {
  session_replaced: "the shopper's checkout started a new payment before this approval came back",
  cart_changed: "the cart changed while the shopper applied, so the approval no longer matches it",
  completion_failed: "the cart could not become an order (for example, an item went out of stock)",
  not_placed: "the store could not place its order within the grace period, though nothing about the cart refused it",
  payment_cancelled:
    "Medusa cancelled its payment while the order was being placed (a step of the completion failed), and no order may stand on a cancelled payment",
  card_unavailable: "PayBright did not show the contract's virtual card within the grace period",
  second_contract: "it is a second contract for a checkout that already has one",
  request_fields:
    "PayBright signed a result carrying fields only a request has, which the store does not trust to place an order",
  test_mismatch:
    "PayBright signed a result whose test flag is not the store's (a sandbox result in production, or the reverse)",
  unknown_result: "PayBright signed a result this store does not know how to read",
  auto_capture_account:
    'PayBright set this account up for auto-capture; in-store capture needs "authorization" results (ask PayBright to set the account to separate authorization and capture)',
}

/**
 * What a failed attempt to place an order answered, as the merchant may read it: a database error's
 * statement (which Medusa's data layer puts before the database's own words) left out, control
 * characters removed, and cut to a readable length. The log keeps the whole error.
 */
export function placementErrorOf(message: string): string {
  const statement = /^\s*(insert|update|delete|select|with)\b[\s\S]* - ([\s\S]+)$/i.exec(message)
  return forLog(statement ? statement[2] : message, 300)
}

/**
 * The one sentence the merchant reads about an orphaned contract: what happened and what to do.
 * `releaseAfter`: the plugin voids it at the lender by itself once that time has passed.
 */
export function orphanMessage(
  approval: {
    contract: string
    amount: string
    currency_code: string
    reason: string | null
    placement_error?: string | null
  },
  releaseAfter?: Date
) {
  const why = WHAT_HAPPENED[approval.reason as OrphanReason] ?? "no order could be placed for it"
  const lastAnswer = approval.placement_error ? ` (its last attempt answered: ${approval.placement_error})` : ""
  const todo = releaseAfter
    ? `The plugin voids it at PayBright after ${releaseAfter.toISOString().slice(0, 16).replace("T", " ")} UTC, releasing the shopper's loan; nothing to do unless that fails.`
    : "Cancel it in the PayBright portal, then mark it handled."
  return `PayBright contract ${approval.contract} (${moneyText(approval.amount, approval.currency_code)}) has no order: ${why}${lastAnswer}. ${todo}`
}

type ApprovalFacts = { contract: string; amount: string; currency_code: string }

/** The timeline's line when the lender's approval of a contract is verified. */
export function approvalVerifiedMessage(approval: ApprovalFacts): string {
  return `PayBright approved contract ${approval.contract} for ${moneyText(approval.amount, approval.currency_code)}.`
}

/** The timeline's line when an orphan's contract was voided at the lender. */
export function approvalReleasedMessage(approval: ApprovalFacts): string {
  return `Contract ${approval.contract} (${moneyText(approval.amount, approval.currency_code)}) was voided at PayBright: the shopper's loan is released.`
}

/** The timeline's line when the merchant says they cancelled an orphan's contract in the portal. */
export function approvalHandledMessage(approval: Pick<ApprovalFacts, "contract">): string {
  return `Contract ${approval.contract} was marked as cancelled in the PayBright portal.`
}
