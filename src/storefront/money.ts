/**
 * Money in the storefront kit: whole cents in a BigInt, never a float. Storefronts hold prices as
 * numbers (the Store API's JSON) or decimal strings, and a taxed total can carry fractions of a
 * cent; both are rounded half-up to the cent here, once, as the lender rounds.
 */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/

/** An amount in major units (29.99, "1234.5", "33.8947") as cents, rounded half-up; throws on anything else. */
export function toCents(amount: number | string): bigint {
  const text = typeof amount === "number" ? numberText(amount) : amount.trim()
  const match = DECIMAL.exec(text)
  if (!match) {
    throw new RangeError(`${JSON.stringify(amount)} is not an amount of money`)
  }
  const [, whole, fraction = ""] = match
  const cents = BigInt(whole) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, "0"))
  return fraction.length > 2 && Number(fraction[2]) >= 5 ? cents + 1n : cents
}

/** Numbers written without exponent; six decimals keep a float's noise (0.1 + 0.2) out of the cents. */
function numberText(amount: number): string {
  if (!Number.isFinite(amount) || amount < 0) {
    throw new RangeError(`${amount} is not an amount of money`)
  }
  return amount.toFixed(6)
}

/** Cents as a two-decimal string ("88.85"). */
export function centsText(cents: bigint): string {
  const sign = cents < 0n ? "-" : ""
  const absolute = cents < 0n ? -cents : cents
  return `${sign}${absolute / 100n}.${(absolute % 100n).toString().padStart(2, "0")}`
}

/** `numerator / denominator` (both positive) rounded half-up to a whole number. */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator)
}

/** Cents in the shopper's language: "$88.85" in English, "88,85 $" in French. */
export function formatMoney(cents: bigint, currency: string, locale: string): string {
  // Two-decimal text is exact as a number for any amount a shop sells.
  return new Intl.NumberFormat(locale, { style: "currency", currency: currency.toUpperCase() }).format(
    Number(centsText(cents))
  )
}

/**
 * How the storefront writes money, so that the kit's amounts read like its own ("CA$899.00" beside
 * "CA$79.03"): the amount in major units and the currency code, as Medusa's starters format them.
 */
export type PayBrightMoneyFormatter = (amount: number, currencyCode: string) => string

/** Cents written by the storefront's formatter when given, else in the shopper's language. */
export function moneyText(
  cents: bigint,
  currency: string,
  locale: string,
  formatter?: PayBrightMoneyFormatter
): string {
  return formatter ? formatter(Number(centsText(cents)), currency.toLowerCase()) : formatMoney(cents, currency, locale)
}
