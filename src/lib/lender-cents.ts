import { MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { formatAmount } from "./texts/amount"
import { sameMedusaAmount } from "../modules/paybright/money-record-types"

/**
 * The one rule between Medusa's amounts and the lender's. Medusa keeps exact decimals (a taxed
 * total such as 349.99 × 1.14975 = 402.4010… carries fractions of a cent); the lender is asked
 * for, and moves, whole cents. Every conversion rounds half up to the cent, here and nowhere else,
 * and ledgers are compared in cents.
 */

const ROUND_HALF_UP = 4

/** An amount in whole cents, rounded half up. */
export function toCents(amount: BigNumberInput): bigint {
  const value = MathBN.convert(amount)
  if (!value.isFinite() || value.isNegative()) {
    throw new RangeError("an amount sent to PayBright must be a finite, non-negative number")
  }
  return BigInt(value.times(100).integerValue(ROUND_HALF_UP).toFixed(0))
}

/** An amount as the lender writes and signs it: two decimals, rounded half up ("402.40"). */
export function lenderAmount(amount: BigNumberInput): string {
  return formatAmount(toCents(amount))
}

/** Whether two amounts are the same number of cents (ledger comparisons). */
export function sameCents(a: BigNumberInput, b: BigNumberInput): boolean {
  return toCents(a) === toCents(b)
}

/** Whether an amount is whole cents, with nothing beyond the second decimal. */
export function isWholeCents(amount: BigNumberInput): boolean {
  const value = MathBN.convert(amount)
  return value.decimalPlaces(2).eq(value)
}

/** An exact amount as text: two decimals when it is whole cents ("500.00"), every digit otherwise. */
export function exactText(amount: BigNumberInput): string {
  const value = MathBN.convert(amount)
  return isWholeCents(value) ? value.toFixed(2) : value.toString()
}

/**
 * Whether an amount is what remains: exactly, or as far as a JSON number carries it (Medusa's
 * admin sends the payment's amount back as a number, which keeps about 15 significant digits of
 * a total Medusa computed to 20).
 */
function isEverythingRemaining(amount: BigNumberInput, remaining: BigNumberInput): boolean {
  return sameMedusaAmount(amount, remaining)
}

/** One capture or refund as Medusa records it, with what the payment held before it. */
export type MedusaMovement = {
  /** Medusa's exact amount for this Capture or Refund. */
  amount: BigNumberInput
  /** What Medusa recorded of the same kind before it on this payment (captured, or refunded). */
  before: BigNumberInput
  /** What this kind could still move before it: authorized − captured, or captured − refunded. */
  remaining: BigNumberInput
}

export type LenderMovement =
  { expressible: true; amount: string; whole: boolean } | { expressible: false; amount: string }

/**
 * What a Medusa capture or refund moves at the lender. An amount in cents moves that amount. An
 * amount with fractions of a cent can only be "everything that remains" (Medusa's own capture
 * button, a cancelled order's refund): it then moves what remains at the lender, so that the
 * lender's total is always Medusa's total rounded to the cent (the difference of the rounded
 * totals after and before; cents never drift over several movements). Any other fractional amount
 * (10.005 typed by hand) has no meaning at the lender and is refused.
 */
export function lenderMovement(movement: MedusaMovement): LenderMovement {
  const amount = MathBN.convert(movement.amount)
  const whole = isEverythingRemaining(amount, movement.remaining)
  if (!whole && !isWholeCents(amount)) {
    return { expressible: false, amount: amount.toString() }
  }
  const moved = whole ? movement.remaining : amount
  const cents = toCents(MathBN.add(movement.before, moved)) - toCents(movement.before)
  return { expressible: true, amount: formatAmount(cents), whole }
}

/**
 * What a sequence of Medusa movements of one kind (captures, or refunds, oldest first) moved at
 * the lender, each: the rule above applied in turn. Ledgers are compared with this.
 */
export function lenderMovements(amounts: BigNumberInput[]): string[] {
  let before = MathBN.convert(0)
  return amounts.map((amount) => {
    const after = MathBN.add(before, amount)
    const cents = toCents(after) - toCents(before)
    before = after
    return formatAmount(cents)
  })
}
