import { forLog } from "./texts/log-text"
import { money, nested, said, type Said } from "./texts/said"
import { EN_TEXTS } from "./texts/en"

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
 * `voidAfter`: the plugin voids it at the lender by itself once that time has passed.
 */
export function orphanMessage(
  approval: {
    contract: string
    amount: string
    currency_code: string
    reason: string | null
    placement_error?: string | null
  },
  voidAfter?: Date
) {
  const why = approval.reason && EN_TEXTS[`orphan_${approval.reason}`] ? `orphan_${approval.reason}` : "orphan_unknown"
  return said("orphan", {
    contract: approval.contract,
    amount: money(approval.amount, approval.currency_code),
    why: nested(said(why)),
    last_answer: approval.placement_error
      ? nested(said("orphan_last_answer", { text: approval.placement_error }))
      : undefined,
    todo: nested(
      voidAfter
        ? said("orphan_voided_after", { at: voidAfter.toISOString().slice(0, 16).replace("T", " ") })
        : said("orphan_cancel_in_portal")
    ),
  })
}

type ApprovalFacts = { contract: string; amount: string; currency_code: string }

/** The timeline's line when the lender's approval of a contract is verified. */
export function approvalVerifiedMessage(approval: ApprovalFacts): Said {
  return said("approval_verified", {
    contract: approval.contract,
    amount: money(approval.amount, approval.currency_code),
  })
}

/** The timeline's line when an orphan's contract was voided at the lender. */
export function approvalVoidedMessage(approval: ApprovalFacts): Said {
  return said("approval_voided", {
    contract: approval.contract,
    amount: money(approval.amount, approval.currency_code),
  })
}

/** The timeline's line when the merchant says they cancelled an orphan's contract in the portal. */
export function approvalHandledMessage(approval: Pick<ApprovalFacts, "contract">): Said {
  return said("approval_handled", { contract: approval.contract })
}
