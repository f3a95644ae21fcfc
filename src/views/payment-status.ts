import { MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import type { PayBrightMoneyRecord, PayBrightPaymentStatus } from "../types/admin"
import { authorizationAge } from "../authorization/authorization-age"
import { openRefusals } from "./record-actions"

const WORDS: Record<PayBrightPaymentStatus, string> = {
  awaiting_capture: "Awaiting capture",
  partially_captured: "Partially captured",
  captured: "Captured",
  partially_refunded: "Partially refunded",
  refunded: "Refunded",
  capture_failed: "Capture failed",
  in_doubt: "In doubt",
  // Medusa's own words and spelling, as its order page writes a payment's status.
  cancelled: "Canceled",
  released: "Canceled · loan released",
  release_failed: "Loan not released",
}

export type StatusFacts = {
  authorized: BigNumberInput
  captured: BigNumberInput
  refunded: BigNumberInput
  cancelled: boolean
  records: Pick<PayBrightMoneyRecord, "id" | "kind" | "state" | "retry_of" | "created_at">[]
  authorizedAt: Date
  authorizationDays: number
  expiryWarningDays: number
  now: Date
}

/**
 * A PayBright payment's status in words, as the order panel shows it: what needs a person first
 * (in doubt, a refused capture), then how far capture has gone, and how soon the lender cancels
 * what is still uncaptured once that is close.
 */
export function paymentStatus(facts: StatusFacts): {
  status: PayBrightPaymentStatus
  status_text: string
  expires_at: string | null
  expires_in_days: number | null
} {
  const remaining = MathBN.sub(facts.authorized, facts.captured)
  const captured = MathBN.convert(facts.captured)
  const release = latestRelease(facts.records)
  const status: PayBrightPaymentStatus =
    release?.state === "done"
      ? "released"
      : release
        ? "release_failed"
        : facts.cancelled
          ? "cancelled"
          : facts.records.some((record) => record.state === "in_doubt")
            ? "in_doubt"
            : openRefusals(facts.records.map((record) => ({ ...record, payment_id: null }))).some(
                  (record) => record.kind === "capture"
                )
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
  if (facts.cancelled || release || MathBN.lte(remaining, 0)) {
    return { status, status_text: WORDS[status], expires_at: null, expires_in_days: null }
  }
  const { expiresAt, daysLeft, expiring } = authorizationAge(
    facts.authorizedAt,
    facts.authorizationDays,
    facts.expiryWarningDays,
    facts.now
  )
  const expiry =
    daysLeft <= 0
      ? " · uncaptured remainder expired"
      : expiring
        ? ` · expiring in ${daysLeft} ${daysLeft === 1 ? "day" : "days"}`
        : ""
  return {
    status,
    status_text: `${WORDS[status]}${expiry}`,
    expires_at: expiresAt.toISOString(),
    expires_in_days: daysLeft,
  }
}

/** The newest attempt at releasing the contract (voiding it at the lender), if any. */
function latestRelease<T extends Pick<PayBrightMoneyRecord, "kind" | "created_at">>(records: T[]): T | undefined {
  return records.filter((record) => record.kind === "void").sort((a, b) => b.created_at.localeCompare(a.created_at))[0]
}
