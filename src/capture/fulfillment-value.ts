import { MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"

export type OrderForCapture = {
  items: { id: string; quantity: BigNumberInput; total: BigNumberInput }[]
  shippingTotal: BigNumberInput
  /**
   * Quantities per line item that count as gone: at shipment, those in parcels already shipped
   * (this one included), never those only packed; at fulfillment, every fulfillment not cancelled.
   */
  fulfilledQuantities: Record<string, BigNumberInput>
  /** The order's total now, after any edit: no capture takes more than this minus what was captured. */
  total?: BigNumberInput
}

/**
 * What a fulfillment is worth to the merchant: its items' share of their line totals (taxes and
 * discounts included), shipping with the first capture, and, once everything is fulfilled,
 * whatever remains of the order's current total (never more than remains authorized), so rounding
 * never leaves a cent behind or captures one too many, and an order edited down is not captured
 * at its original amount. Amounts are decimal strings with two places.
 */
export function captureAmountFor(
  order: OrderForCapture,
  fulfillment: { items: { line_item_id: string; quantity: BigNumberInput }[] },
  payment: { authorized: BigNumberInput; captured: BigNumberInput }
): string {
  const ceiling = order.total === undefined ? payment.authorized : MathBN.min(payment.authorized, order.total)
  const remaining = MathBN.convert(
    MathBN.sub(ceiling, payment.captured).toFixed(2, 4 /* ROUND_HALF_UP, as the authorization was sent */)
  )
  if (MathBN.lte(remaining, 0)) {
    return "0.00"
  }
  const fullyFulfilled = order.items.every((item) => MathBN.gte(order.fulfilledQuantities[item.id] ?? 0, item.quantity))
  if (fullyFulfilled) {
    return MathBN.convert(remaining).toFixed(2, 4)
  }
  const items = fulfillment.items.reduce((sum, fulfilled) => {
    const item = order.items.find((candidate) => candidate.id === fulfilled.line_item_id)
    if (!item || MathBN.lte(item.quantity, 0)) {
      return sum
    }
    const share = MathBN.div(MathBN.mult(item.total, fulfilled.quantity), item.quantity)
    return MathBN.add(sum, MathBN.convert(share).decimalPlaces(2, 4))
  }, MathBN.convert(0))
  const shipping = MathBN.eq(payment.captured, 0)
    ? MathBN.convert(order.shippingTotal).decimalPlaces(2, 4)
    : MathBN.convert(0)
  return MathBN.min(MathBN.add(items, shipping), remaining).toFixed(2, 4)
}
