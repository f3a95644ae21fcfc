import { MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"

/**
 * Medusa's amount as the lender writes it: two decimals, rounded half up, with decimal
 * arithmetic all the way (the lender signs the exact string, so "89.99" and "89.990" differ).
 */
export function toLenderAmount(amount: BigNumberInput): string {
  const value = MathBN.convert(amount)
  if (!value.isFinite() || value.isNegative()) {
    throw new RangeError("an amount sent to PayBright must be a finite, non-negative number")
  }
  return value.toFixed(2, 4 /* BigNumber.ROUND_HALF_UP */)
}

/**
 * A Capture's or Refund's amount as the lender must receive it, refused when it has more than two
 * decimals: rounding it here would record one amount in Medusa and move another at the lender.
 */
export function exactLenderAmount(amount: BigNumberInput): string | undefined {
  const value = MathBN.convert(amount)
  return value.decimalPlaces(2).eq(value) ? toLenderAmount(value) : undefined
}
