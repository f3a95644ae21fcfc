/**
 * Money as decimal strings, as lenders and card processors write it ("1100.00", and "400" in one of
 * PayBright's samples).
 * Amounts are handled here as whole cents in a BigInt so that no float ever touches them.
 */

const AMOUNT = /^(\d{1,12})(?:\.(\d{1,2}))?$/

/** Parses a lender amount ("400", "89.9", "89.99") into cents; throws on anything else. */
export function parseAmount(text: string): bigint {
  const match = AMOUNT.exec(text.trim())
  if (!match) {
    throw new RangeError(`"${text}" is not an amount with at most two decimals`)
  }
  const [, whole, fraction = ""] = match
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0"))
}

/** Whether a string is an amount the lender accepts. */
export function isAmount(text: string): boolean {
  return AMOUNT.test(text.trim())
}

/** Formats cents the way the lender signs amounts: always two decimals ("89.99", "400.00"). */
export function formatAmount(cents: bigint): string {
  if (cents < 0n) {
    throw new RangeError("amounts sent to the lender are never negative")
  }
  const whole = cents / 100n
  const fraction = (cents % 100n).toString().padStart(2, "0")
  return `${whole}.${fraction}`
}

/** Normalises any accepted amount string to the two-decimal form. */
export function normalizeAmount(text: string): string {
  return formatAmount(parseAmount(text))
}

/** Whether two lender amounts are the same sum of money ("400" and "400.00"); false if either is not an amount. */
export function sameAmount(a: string, b: string): boolean {
  try {
    return parseAmount(a) === parseAmount(b)
  } catch {
    return false
  }
}
