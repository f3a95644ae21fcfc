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
