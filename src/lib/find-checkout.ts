import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { isPayBright } from "../storefront/provider"
import { pluginRecords } from "./plugin-records"
import { cartIdOfCollection, orderIdOfCart } from "./medusa-links"

/** A PayBright payment session and the cart it pays for. */
export type Checkout = {
  session: {
    id: string
    provider_id: string
    amount: unknown
    currency_code: string
    status: string
    data: Record<string, unknown>
    payment_collection_id: string
  }
  cartId?: string
  countryCode?: string
  orderId?: string
}

/** Finds the session a lender result names, with its cart and, once placed, its order. */
export async function findCheckout(scope: MedusaContainer, sessionId: string): Promise<Checkout | undefined> {
  const payments = scope.resolve(Modules.PAYMENT)
  const [session] = await payments.listPaymentSessions(
    { id: sessionId },
    { select: ["id", "provider_id", "amount", "currency_code", "status", "data", "payment_collection_id"] }
  )
  if (!session || !isPayBright(session.provider_id)) {
    return undefined
  }
  const cartId = await cartIdOfCollection(scope.resolve(ContainerRegistrationKeys.QUERY), session.payment_collection_id)
  const place = cartId ? await placeOf(scope, cartId) : {}
  return {
    session: session as unknown as Checkout["session"],
    cartId,
    ...place,
  }
}

/** The cart's country (storefront URLs carry it) and its order, if it has one yet. */
export async function placeOf(
  scope: MedusaContainer,
  cartId: string
): Promise<{ countryCode?: string; orderId?: string }> {
  const [countryCode, orderId] = await Promise.all([countryOfCart(scope, cartId), orderOfCart(scope, cartId)])
  return { countryCode, orderId }
}

/** The cart's country, lower case: its shipping address's, its billing address's, or its region's first. */
export async function countryOfCart(scope: MedusaContainer, cartId: string): Promise<string | undefined> {
  const query = scope.resolve(ContainerRegistrationKeys.QUERY)
  // The addresses come with the cart in one statement; the region's countries, a second, only when
  // the cart has no address yet.
  const { data: carts } = await query.graph({
    entity: "cart",
    fields: ["id", "region_id", "shipping_address.country_code", "billing_address.country_code"],
    filters: { id: cartId },
  })
  const cart = carts[0] as
    | {
        region_id?: string | null
        shipping_address?: { country_code?: string | null } | null
        billing_address?: { country_code?: string | null } | null
      }
    | undefined
  const fromAddress = cart?.shipping_address?.country_code || cart?.billing_address?.country_code
  if (fromAddress) return fromAddress.toLowerCase()
  if (!cart?.region_id) return undefined
  const { data: regions } = await query.graph({
    entity: "region",
    fields: ["countries.iso_2"],
    filters: { id: cart.region_id },
  })
  return (regions[0] as { countries?: { iso_2: string }[] } | undefined)?.countries?.[0]?.iso_2?.toLowerCase()
}

/** The cart's order, if it has one that exists (see orderExists). */
export async function orderOfCart(scope: MedusaContainer, cartId: string): Promise<string | undefined> {
  const linked = await orderIdOfCart(scope.resolve(ContainerRegistrationKeys.QUERY), cartId)
  return linked && (await orderExists(scope, linked)) ? linked : undefined
}

/**
 * Whether the order module still has this order. A completion undone half-way (its database
 * connection dropped while Medusa compensated) can leave the cart's link to an order it deleted,
 * and Medusa's completion then answers that order's id again: a link alone proves nothing.
 */
export async function orderExists(scope: MedusaContainer, orderId: string): Promise<boolean> {
  const { data } = await scope
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "order", fields: ["id"], filters: { id: orderId } })
  return data.length > 0
}

/** The cart a payment collection pays for, and the amount the collection now asks for. */
export async function cartOfCollection(
  scope: MedusaContainer,
  paymentCollectionId: string
): Promise<{ cartId?: string; amount?: unknown; countryCode?: string; orderId?: string }> {
  const query = scope.resolve(ContainerRegistrationKeys.QUERY)
  const [cartId, collections] = await Promise.all([
    cartIdOfCollection(query, paymentCollectionId),
    scope
      .resolve(Modules.PAYMENT)
      .listPaymentCollections({ id: paymentCollectionId }, { select: ["id", "amount", "raw_amount"] }),
  ])
  const collection = collections[0] as { amount?: unknown; raw_amount?: unknown } | undefined
  const place = cartId ? await placeOf(scope, cartId) : {}
  return { cartId, amount: collection?.raw_amount ?? collection?.amount, ...place }
}

/**
 * The order holding an approval's contract: the cart's order, if it still exists, with a live
 * payment on the contract, unless that order was placed on another contract. A cart changed and
 * paid again keeps the earlier payment in its collection beside the order's own, and that payment
 * never holds the order: the order's is the one its approval is `ordered` on, or, before any is
 * marked, the newest live payment of the collection (a completion that takes up a kept payment
 * authorizes no other). An approval recorded without its cart counts as held by any live payment
 * on the contract, as nothing tells where that payment's order is.
 */
export async function orderHolding(
  scope: MedusaContainer,
  approval: { cart_id: string | null; session_id: string; contract: string }
): Promise<{ orderId?: string } | undefined> {
  const payments = scope.resolve(Modules.PAYMENT)
  const sessionPayments = await payments.listPayments(
    { payment_session_id: approval.session_id },
    { select: ["id", "data", "canceled_at", "payment_collection_id"] }
  )
  const [own] = sessionPayments.filter((payment) => liveContracts([payment])[0] === approval.contract)
  if (!own) return undefined
  if (!approval.cart_id) return {}
  const { orderId } = await placeOf(scope, approval.cart_id)
  if (!orderId) return undefined
  const placedOn = await contractOfOrder(scope, orderId)
  if (placedOn) return placedOn === approval.contract ? { orderId } : undefined
  const [newest] = await payments.listPayments(
    { payment_collection_id: own.payment_collection_id, canceled_at: null } as never,
    { select: ["id"], order: { created_at: "DESC" }, take: 1 }
  )
  return newest?.id === own.id ? { orderId } : undefined
}

/** The contract an order was placed on: its approval's, once that approval reads `ordered`. */
export async function contractOfOrder(scope: MedusaContainer, orderId: string): Promise<string | undefined> {
  const [ordered] = await pluginRecords(scope).listPayBrightApprovals(
    { order_id: orderId, state: "ordered" },
    { select: ["contract"], take: 1 }
  )
  return ordered?.contract
}

/** The live payments of an order's payment collection; none if the order no longer exists. */
export async function paymentsOfOrder(
  scope: MedusaContainer,
  order: { orderId: string; paymentCollectionId: string }
): Promise<{ contract: string }[]> {
  if (!(await orderExists(scope, order.orderId))) return []
  return livePayments(scope, { payment_collection_id: order.paymentCollectionId })
}

/**
 * The payments (not cancelled) of a session or of a whole payment collection, each with the
 * PayBright contract it was authorized on ("" for another provider's). Medusa links the order to
 * the cart before it authorizes the payment: an order with no payment yet is still being placed.
 */
export async function livePayments(
  scope: MedusaContainer,
  filter: { payment_session_id: string } | { payment_collection_id: string }
): Promise<{ contract: string }[]> {
  const payments = scope.resolve(Modules.PAYMENT)
  const found =
    "payment_session_id" in filter
      ? await payments.listPayments(filter, { select: ["id", "data", "canceled_at"] })
      : ((await payments.listPaymentCollections({ id: filter.payment_collection_id }, { relations: ["payments"] }))[0]
          ?.payments ?? [])
  return liveContracts(found).map((contract) => ({ contract }))
}

/** The PayBright contracts of the payments not cancelled ("" for another provider's payment). */
export function liveContracts(payments: { data?: unknown; canceled_at?: unknown }[]): string[] {
  return payments
    .filter((payment) => !payment.canceled_at)
    .map((payment) => {
      const reference = (payment.data as { gateway_reference?: unknown } | null | undefined)?.gateway_reference
      return typeof reference === "string" ? reference : ""
    })
}
