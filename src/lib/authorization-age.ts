import { paymentDataSchema } from "./session-data"

const DAY = 24 * 60 * 60 * 1000

/**
 * Where an authorization stands in its life: when it lapses (the lender's authorization period
 * after it was made), how many whole days old it is and how many are left, and whether it is old
 * enough (`warningDays`) to warn the merchant. The one rule for the needs-attention list, the
 * daily report and the order panel.
 */
export function authorizationAge(authorizedAt: Date, lifetimeDays: number, warningDays: number, now: Date) {
  const expiresAt = new Date(authorizedAt.getTime() + lifetimeDays * DAY)
  const ageDays = Math.floor((now.getTime() - authorizedAt.getTime()) / DAY)
  return {
    expiresAt,
    ageDays,
    daysLeft: Math.ceil((expiresAt.getTime() - now.getTime()) / DAY),
    expiring: ageDays >= warningDays,
  }
}

/**
 * When a PayBright payment's authorization began: when Medusa authorized it, or, for a payment a
 * contract was carried into after an order change (src/lib/carried-contract.ts), when the
 * lender approved the contract, from which the lender counts its authorization period.
 */
export function authorizationStart(payment: { created_at?: unknown; data?: unknown }): Date {
  const data = paymentDataSchema.safeParse(payment.data).data
  if (data?.captured_before !== undefined && data.approved_at) return new Date(data.approved_at)
  return new Date(payment.created_at as string)
}
