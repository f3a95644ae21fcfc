import { withinAmounts, type PayBrightAmount, type PayBrightFinancingTerms, type PayBrightLimits } from "./limits"
import { payBrightNumberLocale, payBrightText } from "./messages"
import { centsText, moneyText, roundHalfUp, toCents, type PayBrightMoneyFormatter } from "./money"

/** A monthly payment worked out from the merchant's terms. An estimate: PayBright sets the real terms. */
export type PayBrightEstimate = {
  months: number
  /** APR in percent, as configured ("9.99"). */
  apr: string
  /** The price plus a financed setup fee, in cents. */
  financedCents: bigint
  /** Each monthly payment, fees included, in cents rounded half-up. */
  monthlyCents: bigint
  /** The same as a two-decimal string ("88.85"). */
  monthly: string
}

const APR = /^(\d{1,2})(?:\.(\d{1,4}))?$/
/** APRs are read to four decimals of a percent: r = aprUnits / APR_DIVISOR per month. */
const APR_DIVISOR = 12n * 100n * 10_000n

/**
 * The monthly payment for `amount` (major units) on the merchant's terms, by standard amortization:
 * payment = P·r / (1 − (1 + r)^−n), r = APR / 12, n = months; P / n when the APR is 0. P is the
 * price plus the setup fee; the monthly fee is added to each payment. Computed exactly on whole
 * numbers (r is a fraction of two BigInts) and rounded half-up to the cent once, at the end.
 */
export function estimatePayBrightFinancing(amount: number | string, terms: PayBrightFinancingTerms): PayBrightEstimate {
  const months = terms.months
  if (!Number.isInteger(months) || months < 1) {
    throw new RangeError(`financing terms of ${months} months`)
  }
  const apr = APR.exec(terms.apr.trim())
  if (!apr) {
    throw new RangeError(`an APR of ${JSON.stringify(terms.apr)} (a percent such as "9.99")`)
  }
  const financedCents = toCents(amount) + (terms.setup_fee ? toCents(terms.setup_fee) : 0n)
  const n = BigInt(months)
  const a = BigInt(apr[1]) * 10_000n + BigInt((apr[2] ?? "").padEnd(4, "0"))
  // With r = a / b: P·r·(1+r)^n / ((1+r)^n − 1) = P·a·(b+a)^n / (b·((b+a)^n − b^n)).
  const b = APR_DIVISOR
  const [numerator, denominator] =
    a === 0n ? [financedCents, n] : [financedCents * a * (b + a) ** n, b * ((b + a) ** n - b ** n)]
  const monthlyCents = roundHalfUp(numerator, denominator) + (terms.monthly_fee ? toCents(terms.monthly_fee) : 0n)
  return { months, apr: terms.apr, financedCents, monthlyCents, monthly: centsText(monthlyCents) }
}

/** A financing message ready to show: the headline and the estimate's small print. */
export type PayBrightFinancingMessage = {
  /** "or from $88.85/month with PayBright" */
  text: string
  /** "Estimate: 12 monthly payments at 12% APR, subject to approval. …" */
  note: string
  estimate: PayBrightEstimate
}

export type PayBrightFinancingOptions = {
  /**
   * What the amount is: a product's `price` (the note then says the estimate is before tax and
   * shipping, which PayBright finances too), or a cart's `total` (tax and shipping included).
   * Omitted, the note says neither.
   */
  basis?: "price" | "total"
  /** The storefront's own way to write money (see PayBrightMoneyFormatter); the kit's otherwise. */
  formatMoney?: PayBrightMoneyFormatter
}

/**
 * The financing message for a price or a cart, in the shopper's language; undefined when it must
 * not be shown: no terms configured, another currency, or an amount outside the order limits or
 * below the terms' minimum.
 */
export function payBrightFinancingMessage(
  limits: PayBrightLimits | undefined,
  price: PayBrightAmount,
  locale?: string | null,
  options: PayBrightFinancingOptions = {}
): PayBrightFinancingMessage | undefined {
  const terms = limits?.financing
  if (!limits || !terms || price.total === null || price.total === undefined || !price.currency_code) return undefined
  const currency = price.currency_code.toUpperCase()
  const cents = toCents(price.total)
  if (
    !limits.currencies.includes(currency) ||
    !withinAmounts(cents, limits.min_order_amount, limits.max_order_amount) ||
    !withinAmounts(cents, terms.min_amount, null)
  ) {
    return undefined
  }
  const estimate = estimatePayBrightFinancing(centsText(cents), terms)
  const numbers = payBrightNumberLocale(locale)
  const money = (value: string) => moneyText(toCents(value), currency, numbers, options.formatMoney)
  const fees =
    (terms.setup_fee && toCents(terms.setup_fee) > 0n
      ? payBrightText("setupFee", locale, { fee: money(terms.setup_fee) })
      : "") +
    (terms.monthly_fee && toCents(terms.monthly_fee) > 0n
      ? payBrightText("monthlyFee", locale, { fee: money(terms.monthly_fee) })
      : "")
  const apr = new Intl.NumberFormat(numbers, { maximumFractionDigits: 4 }).format(Number(terms.apr))
  return {
    text: payBrightText("financing", locale, {
      amount: moneyText(estimate.monthlyCents, currency, numbers, options.formatMoney),
    }),
    note:
      payBrightText("estimate", locale, { months: estimate.months, apr, fees }) +
      (options.basis === "price" ? ` ${payBrightText("beforeTaxAndShipping", locale)}` : ""),
    estimate,
  }
}
