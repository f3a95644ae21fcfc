import { PAYBRIGHT_PROVIDER_ID } from "./provider"
import { payBrightNumberLocale, payBrightText } from "./messages"
import { moneyText, toCents, type PayBrightMoneyFormatter } from "./money"

/** The terms the merchant configured for the storefront's financing estimate; amounts are decimal strings. */
export type PayBrightFinancingTerms = {
  /** Number of monthly payments. */
  months: number
  /** Annual percentage rate, in percent ("0", "9.99"). */
  apr: string
  /** A one-time fee added to the amount financed; null for none. */
  setup_fee: string | null
  /** A fee added to each monthly payment; null for none. */
  monthly_fee: string | null
  /** The smallest price the estimate is shown for (besides the order limits); null for none. */
  min_amount: string | null
}

/** PayBright's own promotional widget, when the merchant configured its public key. */
export type PayBrightPromotionalWidget = { public_key: string; script_url: string }

/** One PayBright provider as `GET /store/paybright/limits` answers it: nothing secret. */
export type PayBrightLimits = {
  provider_id: string
  currencies: string[]
  /** Decimal strings; null when there is no limit. */
  min_order_amount: string | null
  max_order_amount: string | null
  /** Null when the merchant configured no financing terms: no estimate is shown. */
  financing: PayBrightFinancingTerms | null
  promotional_widget: PayBrightPromotionalWidget | null
}

export type PayBrightLimitsResponse = { limits: PayBrightLimits[] }

/** The Store API route answering the limits and terms (publishable key required). */
export const PAYBRIGHT_LIMITS_PATH = "/store/paybright/limits"

/**
 * The limits and financing terms of every PayBright provider, from the Store API. The merchant may
 * change them at any time in the admin: fetch them for each checkout, or cache them for a minute.
 */
export async function fetchPayBrightLimits(input: {
  backendUrl: string
  publishableKey: string
  fetch?: typeof fetch
  init?: RequestInit
}): Promise<PayBrightLimits[]> {
  const get = input.fetch ?? fetch
  const response = await get(`${input.backendUrl.replace(/\/+$/, "")}${PAYBRIGHT_LIMITS_PATH}`, {
    ...input.init,
    headers: { ...(input.init?.headers as Record<string, string>), "x-publishable-api-key": input.publishableKey },
  })
  if (!response.ok) {
    throw new Error(`${PAYBRIGHT_LIMITS_PATH} answered ${response.status}`)
  }
  return ((await response.json()) as PayBrightLimitsResponse).limits
}

/** The limits of one PayBright provider (the README's `pp_paybright_paybright` unless named). */
export function payBrightLimitsOf(
  limits: readonly PayBrightLimits[] | null | undefined,
  providerId: string = PAYBRIGHT_PROVIDER_ID
): PayBrightLimits | undefined {
  return limits?.find((entry) => entry.provider_id === providerId)
}

/** An amount in major units and its currency: a cart (`total`, `currency_code`) or a price. */
export type PayBrightAmount = { total: number | string | null | undefined; currency_code: string | null | undefined }

/**
 * Whether PayBright may be offered for a cart: its currency is one PayBright is set up for and its
 * total is within the order limits. Without limits to go by (the route failed), it is offered: the
 * plugin still refuses a session outside them, with a sentence for the shopper.
 */
export function isPayBrightOffered(limits: PayBrightLimits | undefined, cart: PayBrightAmount): boolean {
  if (!limits) return true
  if (cart.total === null || cart.total === undefined || !cart.currency_code) return false
  return (
    limits.currencies.includes(cart.currency_code.toUpperCase()) &&
    withinAmounts(toCents(cart.total), limits.min_order_amount, limits.max_order_amount)
  )
}

/** Whether `cents` is within the given decimal bounds (null: no bound). */
export function withinAmounts(cents: bigint, min: string | null, max: string | null): boolean {
  return (min === null || cents >= toCents(min)) && (max === null || cents <= toCents(max))
}

/**
 * Why PayBright is not offered for this cart (isPayBrightOffered is false), in the shopper's
 * language: the order limits with their amounts, or the currency; undefined when it is offered.
 * For a payment step that leaves PayBright out, above all where it is the only method.
 */
export function payBrightUnavailableMessage(
  limits: PayBrightLimits | undefined,
  cart: PayBrightAmount,
  locale?: string | null,
  options: { formatMoney?: PayBrightMoneyFormatter } = {}
): string | undefined {
  if (!limits || isPayBrightOffered(limits, cart) || cart.total === null || cart.total === undefined) return undefined
  const currency = cart.currency_code?.toUpperCase()
  if (!currency || !limits.currencies.includes(currency)) return payBrightText("unavailable.currency", locale)
  const money = (amount: string) =>
    moneyText(toCents(amount), currency, payBrightNumberLocale(locale), options.formatMoney)
  const { min_order_amount: min, max_order_amount: max } = limits
  if (min !== null && max !== null)
    return payBrightText("unavailable.range", locale, { min: money(min), max: money(max) })
  if (min !== null) return payBrightText("unavailable.min", locale, { min: money(min) })
  if (max !== null) return payBrightText("unavailable.max", locale, { max: money(max) })
  return undefined
}
