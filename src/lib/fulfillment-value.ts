import { MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { exactText, lenderAmount, toCents } from "./lender-cents"

export type OrderForCapture = {
  items: { id: string; quantity: BigNumberInput; total: BigNumberInput }[]
  shippingTotal: BigNumberInput
  /**
   * Quantities per line item that count as gone: at shipment, those in parcels already shipped
   * (this one included), never those only packed; at fulfillment, every fulfillment not cancelled.
   */
  fulfilledQuantities: Record<string, BigNumberInput>
  /** The order's total now, after any edit: no capture takes more than this minus what the order holds paid. */
  total?: BigNumberInput
  /**
   * What the order's payments hold, captured less refunded, this payment's included (this
   * payment's captures when omitted). A payment the contract was carried into counts what the
   * earlier one captured, whatever amount Medusa opened its collection for.
   */
  paid?: BigNumberInput
}

/**
 * What a fulfillment is worth to the merchant, in Medusa's precision: its items' share of their
 * line totals (taxes and discounts included) and the shipping with the first capture, each
 * rounded to the cent; and, once everything is fulfilled (or the parcel is worth at least what
 * remains), exactly what remains of the order's current total, fractions of a cent included, so
 * that Medusa reads the payment as fully captured and the lender captures what remains of the
 * contract (src/lib/lender-cents.ts). Never more than remains authorized, nor than the order owes:
 * an order edited down is not captured at its original amount, and where the payment holds more
 * than the order owes, what it owes is captured in whole cents. "0.00" when nothing remains at
 * the lender.
 */
export function captureAmountFor(
  order: OrderForCapture,
  fulfillment: { items: { line_item_id: string; quantity: BigNumberInput }[] },
  payment: {
    authorized: BigNumberInput
    captured: BigNumberInput
    /** What the contract's earlier payments captured, where it was carried into this one after an order change. */
    capturedBefore?: BigNumberInput
  }
): string {
  const authorizedLeft = MathBN.sub(payment.authorized, payment.captured)
  const owed = order.total === undefined ? authorizedLeft : MathBN.sub(order.total, order.paid ?? payment.captured)
  const remaining = MathBN.min(authorizedLeft, owed)
  const ceiling = MathBN.add(payment.captured, remaining)
  if (MathBN.lte(remaining, 0) || toCents(ceiling) <= toCents(payment.captured)) {
    return "0.00"
  }
  // What the order owes, where it is a cent or more below what the payment holds, is a part of the
  // payment: whole cents, as the lender moves them. Otherwise the payment's remainder, exactly.
  const part = toCents(lenderAmount(owed)) < toCents(lenderAmount(authorizedLeft))
  const rest = part ? lenderAmount(owed) : exactText(authorizedLeft)
  const fullyFulfilled = order.items.every((item) => MathBN.gte(order.fulfilledQuantities[item.id] ?? 0, item.quantity))
  if (fullyFulfilled) {
    return rest
  }
  const items = fulfillment.items.reduce((sum, fulfilled) => {
    const item = order.items.find((candidate) => candidate.id === fulfilled.line_item_id)
    if (!item || MathBN.lte(item.quantity, 0)) {
      return sum
    }
    const share = MathBN.div(MathBN.mult(item.total, fulfilled.quantity), item.quantity)
    return MathBN.add(sum, lenderAmount(share))
  }, MathBN.convert(0))
  const firstCapture = MathBN.eq(payment.captured, 0) && MathBN.eq(payment.capturedBefore ?? 0, 0)
  const shipping = firstCapture ? lenderAmount(order.shippingTotal) : 0
  const worth = MathBN.add(items, shipping)
  return MathBN.gte(worth, remaining) ? rest : lenderAmount(worth)
}
