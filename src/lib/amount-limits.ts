import { parseAmount } from "./texts/amount"
import type { PayBrightOptions } from "./options"

/**
 * Why PayBright is not offered for a cart of `amount` (a two-decimal string), in a sentence the
 * storefront can show the shopper, or undefined when the amount is within the merchant's limits.
 */
export function amountLimitRefusal(
  options: Pick<PayBrightOptions, "minOrderAmount" | "maxOrderAmount">,
  amount: string,
  currency: string
): string | undefined {
  const { minOrderAmount: min, maxOrderAmount: max } = options
  const cents = parseAmount(amount)
  const range =
    min && max
      ? `from ${min} to ${max} ${currency}`
      : min
        ? `of ${min} ${currency} or more`
        : `up to ${max} ${currency}`
  if ((min && cents < parseAmount(min)) || (max && cents > parseAmount(max))) {
    return `PayBright financing is available for orders ${range}; this order's total is ${amount} ${currency}. Choose another payment method.`
  }
  return undefined
}
