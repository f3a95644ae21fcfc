import { getOrderDetailWorkflow } from "@medusajs/core-flows"
import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { captureAmountFor } from "./fulfillment-value"
import { lenderMovement } from "./lender-cents"
import type { CaptureTrigger } from "./capture-types"
import { isPayBright } from "../storefront/provider"
import { totalOf } from "./totals"
import { contractOfOrder } from "./find-checkout"
import { orderIdOfFulfillment } from "./medusa-links"
import { capturedOnContract, type OrderPaymentRow } from "./carried-contract"

export type CaptureTarget =
  | { found: false; reason: string }
  | {
      found: true
      order: { id: string; display_id: number }
      /** `canceled`: Medusa cancelled the rest of the authorization (an order edit after a partial capture). */
      payment: { id: string; provider_id: string; currency_code: string; contract: string | null; canceled: boolean }
      /** What this parcel captures now in Medusa, by the rules of fulfillment-value.ts. */
      amount: string
      /** What that capture moves at the lender (src/lib/lender-cents.ts). */
      lenderAmount: string
    }

/**
 * The order, its PayBright payment and what the fulfillment is worth now. At shipment only
 * parcels already shipped count toward "everything has gone"; what the order owes now caps what
 * is captured: its current total (after edits) less what its payments hold, captured less
 * refunded. Read off the payments' own rows, not the order's summary: Medusa books a capture on
 * the order after the lender's answer, and an order change confirmed in between opens its new
 * collection for too much. `orderId`: the parcel's order, where it was found already.
 */
export async function captureTarget(
  container: MedusaContainer,
  trigger: CaptureTrigger,
  fulfillmentId: string,
  orderId?: string
): Promise<CaptureTarget> {
  const parcelOrderId =
    orderId ?? (await orderIdOfFulfillment(container.resolve(ContainerRegistrationKeys.QUERY), fulfillmentId))
  if (!parcelOrderId) {
    return { found: false, reason: `fulfillment ${fulfillmentId} belongs to no order` }
  }
  // Line and shipping totals (taxes and discounts included) are computed by the order workflow,
  // which reads the order's payments with it.
  const { result: order } = (await getOrderDetailWorkflow(container).run({
    input: {
      order_id: parcelOrderId,
      fields: [
        "id",
        "display_id",
        "total",
        "items.*",
        "items.total",
        "shipping_methods.*",
        "shipping_methods.total",
        "fulfillments.*",
        "fulfillments.items.*",
        "payment_collections.payments.id",
        "payment_collections.payments.provider_id",
        "payment_collections.payments.amount",
        "payment_collections.payments.currency_code",
        "payment_collections.payments.canceled_at",
        "payment_collections.payments.data",
        "payment_collections.payments.captures.amount",
        "payment_collections.payments.refunds.amount",
      ],
    },
  })) as { result: any }
  const payment: any = pickPayBrightPayment(
    (order?.payment_collections ?? []).flatMap((collection: any) => collection?.payments ?? []),
    await contractOfOrder(container, parcelOrderId)
  )
  if (!order || !payment) {
    return { found: false, reason: "the order is not paid with PayBright" }
  }
  const live = (order.fulfillments ?? []).filter((candidate: any) => !candidate.canceled_at)
  const fulfillment = live.find((candidate: any) => candidate.id === fulfillmentId)
  if (!fulfillment) {
    return { found: false, reason: `fulfillment ${fulfillmentId} is cancelled` }
  }
  // Packed is not gone: at shipment only shipped parcels (this one is, by its event) count.
  const counted = live.filter(
    (candidate: any) => trigger !== "shipment" || candidate.shipped_at || candidate.id === fulfillmentId
  )
  const fulfilledQuantities: Record<string, ReturnType<typeof MathBN.convert>> = {}
  for (const { items } of counted) {
    for (const item of items ?? []) {
      fulfilledQuantities[item.line_item_id] = MathBN.add(fulfilledQuantities[item.line_item_id] ?? 0, item.quantity)
    }
  }
  const shippingTotal = (order.shipping_methods ?? []).reduce(
    (sum: any, method: any) => MathBN.add(sum, method.total ?? 0),
    MathBN.convert(0)
  )
  const captured = totalOf(payment.captures)
  // Every payment of the order, the ones Medusa cancelled after capturing part included.
  const payments = (order.payment_collections ?? []).flatMap((collection: any) => collection?.payments ?? [])
  const paid = payments.reduce(
    (sum: any, each: any) => MathBN.add(sum, MathBN.sub(totalOf(each.captures), totalOf(each.refunds))),
    MathBN.convert(0)
  )
  const amount = captureAmountFor(
    { items: order.items, shippingTotal, fulfilledQuantities, total: order.total, paid },
    { items: fulfillment.items },
    { authorized: payment.amount, captured, capturedBefore: capturedBeforeOn(payments, payment) }
  )
  const lender = lenderMovement({ amount, before: captured, remaining: MathBN.sub(payment.amount, captured) })
  return {
    found: true,
    order: { id: order.id, display_id: order.display_id },
    payment: {
      id: payment.id,
      provider_id: payment.provider_id,
      currency_code: payment.currency_code,
      contract: payment.data?.gateway_reference ?? null,
      canceled: !!payment.canceled_at,
    },
    amount,
    lenderAmount: lender.amount,
  }
}

/**
 * What the contract's other payments of the order captured, read off Medusa's rows now rather
 * than the carried payment's `captured_before`, which a capture booked after the carry leaves short.
 */
function capturedBeforeOn(payments: OrderPaymentRow[], payment: OrderPaymentRow): string {
  const contract = (payment.data as { gateway_reference?: string } | null)?.gateway_reference
  if (!contract) return "0"
  return capturedOnContract(
    payments.filter((other) => other.id !== payment.id),
    contract
  )
}

/**
 * The order's PayBright payment: the live one on `orderedContract`, the contract the order was
 * placed on (a cart changed and paid again keeps its earlier payment, on another contract, in the
 * collection beside the order's), else one on it Medusa cancelled (an order edit cancels what
 * remains authorized and asks for a new payment), so that the parcel's capture is refused with a
 * reason rather than skipped in silence. Without that contract (no approval marked ordered), or
 * with no payment on it: the live one, else the latest.
 */
export function pickPayBrightPayment<P extends { provider_id?: string; canceled_at?: unknown; data?: unknown }>(
  payments: P[],
  orderedContract: string | undefined
): P | undefined {
  const ours = payments.filter((candidate) => isPayBright(candidate?.provider_id))
  const onContract = ours.filter(
    (candidate) => (candidate.data as { gateway_reference?: unknown } | null)?.gateway_reference === orderedContract
  )
  const candidates = orderedContract && onContract.length > 0 ? onContract : ours
  return candidates.find((candidate) => !candidate.canceled_at) ?? candidates.at(-1)
}
