import { MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import type { PayBrightMoneyRecord, PayBrightPaymentStatus } from "../lib/admin-types"
import { authorizationAge } from "../lib/authorization-age"
import { openRefusals } from "../lib/open-refusals"

export type StatusFacts = {
  authorized: BigNumberInput
  captured: BigNumberInput
  refunded: BigNumberInput
  cancelled: boolean
  /**
   * Cancelled by an order change that left the order owing, its contract still to be carried into
   * the order's new payment (src/lib/carried-contract.ts): the loan lives on.
   */
  carrying?: boolean
  records: Pick<
    PayBrightMoneyRecord,
    "id" | "kind" | "state" | "retry_of" | "fulfillment_id" | "amount" | "created_at"
  >[]
  authorizedAt: Date
  authorizationDays: number
  expiryWarningDays: number
  now: Date
}

/**
 * A PayBright payment's status, as the order panel shows it (the admin writes it in the merchant's
 * language): what needs a person first (in doubt, a refused capture), then how far capture has
 * gone, and when the lender cancels what is still uncaptured.
 */
export function paymentStatus(facts: StatusFacts): {
  status: PayBrightPaymentStatus
  expires_at: string | null
  expires_in_days: number | null
  expiring: boolean
} {
  const remaining = MathBN.sub(facts.authorized, facts.captured)
  const captured = MathBN.convert(facts.captured)
  const lastVoid = latestVoid(facts.records)
  const status: PayBrightPaymentStatus =
    lastVoid?.state === "done"
      ? "voided"
      : lastVoid
        ? "void_failed"
        : facts.cancelled
          ? facts.carrying
            ? "carrying"
            : "cancelled"
          : facts.records.some((record) => record.state === "in_doubt")
            ? "in_doubt"
            : openRefusals(
                  facts.records.map((record) => ({ ...record, payment_id: null })),
                  () => MathBN.lte(remaining, 0)
                ).some((record) => record.kind === "capture")
              ? "capture_failed"
              : MathBN.gt(captured, 0) && MathBN.gte(facts.refunded, captured)
                ? "refunded"
                : MathBN.gt(facts.refunded, 0)
                  ? "partially_refunded"
                  : MathBN.lte(remaining, 0)
                    ? "captured"
                    : MathBN.gt(captured, 0)
                      ? "partially_captured"
                      : "awaiting_capture"
  if ((facts.cancelled && !facts.carrying) || lastVoid || MathBN.lte(remaining, 0)) {
    return { status, expires_at: null, expires_in_days: null, expiring: false }
  }
  const { expiresAt, daysLeft, expiring } = authorizationAge(
    facts.authorizedAt,
    facts.authorizationDays,
    facts.expiryWarningDays,
    facts.now
  )
  return { status, expires_at: expiresAt.toISOString(), expires_in_days: daysLeft, expiring }
}

/** The newest attempt at voiding the contract at the lender, if any. */
function latestVoid<T extends Pick<PayBrightMoneyRecord, "kind" | "created_at">>(records: T[]): T | undefined {
  return records.filter((record) => record.kind === "void").sort((a, b) => b.created_at.localeCompare(a.created_at))[0]
}
