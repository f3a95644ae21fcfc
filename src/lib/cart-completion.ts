import { randomUUID } from "node:crypto"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { clearExpiredLeases, leaseHeld } from "./expired-lease"
import { cartIdOfCollection, collectionIdOfCart, collectionsOfOrders, orderIdOfCart } from "./medusa-links"

/**
 * What a completion of the cart left behind when it stopped half-way, so that Medusa's completion
 * will not place the order again: it skips its "create-order" branch whenever the cart is linked to
 * an order, and answers that order without authorizing anything. Two shapes:
 * - a process killed after Medusa created the order and linked it to the cart, before the payment
 *   was authorized: an order standing with no payment, which nothing undid;
 * - a completion undone half-way (its database connection dropped while Medusa compensated): the
 *   order deleted, its link to the cart left, perhaps with a payment authorized on the session,
 *   which the next completion takes up again.
 * `recent`: a standing order younger than a completion's lease, whose completion may still be
 * running (its lock lost, say, in a Redis restart).
 */
export type CutShortCompletion = {
  cartId: string
  orderId: string
  /** Whether the order row is still there (it is then removed too). */
  standing: boolean
  /** The order's line items (none once its rows are gone), whose reservations it may hold. */
  lineItemIds: string[]
  recent: boolean
}

/** A payment Medusa cancelled on a session the cart can still be completed with: no order may be placed on it. */
export type CancelledPayment = { cancelledPaymentId: string }

/**
 * What stands in the way of completing this cart, read under its lock (so no other completion is
 * running): a payment Medusa cancelled on a session its completion would take up (the shortcut
 * would hand that payment to a new order), or the leftovers of a completion cut short; usually nothing.
 */
export async function beforeCompletionOf(
  container: MedusaContainer,
  cartId: string,
  leaseSeconds: number,
  sessionId?: string,
  now = Date.now()
): Promise<CancelledPayment | CutShortCompletion | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [orderId, paymentCollectionId] = await Promise.all([
    orderIdOfCart(query, cartId),
    collectionIdOfCart(query, cartId),
  ])
  if (!paymentCollectionId) return undefined
  const [[collection], [order]] = await Promise.all([
    container
      .resolve(Modules.PAYMENT)
      .listPaymentCollections({ id: paymentCollectionId }, { relations: ["payments", "payment_sessions"] }),
    orderId
      ? container
          .resolve(Modules.ORDER)
          .listOrders(
            { id: orderId },
            { select: ["id", "created_at", "deleted_at"], relations: ["items"], withDeleted: true }
          )
      : Promise.resolve([]),
  ])
  const payments = collection?.payments ?? []
  // Medusa's completion takes up the payment of a session it can still complete, cancelled or
  // not; one on a session it deleted or that was withdrawn (in error) is past, and a new
  // application on a new session may be placed beside it.
  const completable = new Set(
    (collection?.payment_sessions ?? [])
      .filter((session) => session.status !== "error" && session.status !== "canceled")
      .map((session) => session.id)
  )
  const cancelled = payments.find(
    (payment) =>
      payment.canceled_at && completable.has((payment as { payment_session_id?: string }).payment_session_id ?? "")
  )
  if (cancelled) return { cancelledPaymentId: cancelled.id }
  if (!orderId) return undefined
  const standing = !!order && !order.deleted_at
  if (standing && payments.length > 0) return undefined
  // An order older than the session being completed was not left by a completion of it: the cart
  // was completed another way, by a payment method whose authorization is deferred (Medusa places
  // its order with no payment). It is the shopper's order, answered as it stands.
  const session = (collection?.payment_sessions ?? []).find((candidate) => candidate.id === sessionId)
  if (standing && session && new Date(order.created_at).getTime() < new Date(session.created_at).getTime()) {
    return undefined
  }
  return {
    cartId,
    orderId,
    standing,
    lineItemIds: (order?.items ?? []).map((item) => item.id),
    recent: standing && now - new Date(order.created_at).getTime() < leaseSeconds * 1000,
  }
}

/**
 * Undoes what the cut-short completion did, as Medusa's own compensation would have had it run to
 * its end: the order's reservations (under the inventory items' locks, as Medusa takes them), the
 * order, its links, and the cart's completion date. In this order, so that should this stop
 * half-way too, the cart's link still leads the next attempt here. A payment authorized on the
 * session stays: the next completion finds it and gives it to the new order. A promotion use the
 * completion registered stays counted (nothing records whether it was), the safer side of a
 * usage limit.
 */
export async function undoCutShortCompletion(container: MedusaContainer, left: CutShortCompletion): Promise<void> {
  const inventory = container.resolve(Modules.INVENTORY)
  const reservations = left.lineItemIds.length
    ? await inventory.listReservationItems({ line_item_id: left.lineItemIds }, { select: ["id", "inventory_item_id"] })
    : []
  if (reservations.length) {
    const itemIds = [...new Set(reservations.map((reservation) => reservation.inventory_item_id))]
    await container
      .resolve(Modules.LOCKING)
      .execute(itemIds, () => inventory.deleteReservationItems(reservations.map((reservation) => reservation.id)))
  }
  if (left.standing) await container.resolve(Modules.ORDER).deleteOrders([left.orderId])
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const order = { [Modules.ORDER]: { order_id: left.orderId } }
  const [collections, { data: promotions }] = await Promise.all([
    collectionsOfOrders(query, [left.orderId]),
    query.graph({ entity: "order_promotion", fields: ["promotion_id"], filters: { order_id: left.orderId } }),
  ])
  const linked = [
    ...(collections.get(left.orderId) ?? []).map((collection) => ({
      ...order,
      [Modules.PAYMENT]: { payment_collection_id: collection.id },
    })),
    ...promotions.map((row: { promotion_id: string }) => ({
      ...order,
      [Modules.PROMOTION]: { promotion_id: row.promotion_id },
    })),
  ]
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  // The cart's link last: it is what leads a later attempt back here.
  await link.dismiss(linked)
  await link.dismiss([{ [Modules.ORDER]: { order_id: left.orderId }, [Modules.CART]: { cart_id: left.cartId } }])
  await container.resolve(Modules.CART).updateCarts(left.cartId, { completed_at: null })
}

/**
 * Whether a completion of the cart paying with this collection is running now: one holds the cart's
 * lock (Medusa's completion and the plugin's take the same key, and keep it until they end, their
 * compensation included). Read on `locking-postgres` (see leaseHeld); elsewhere probed by taking
 * the lock for an instant: free, it is given back at once.
 */
export async function completionRunning(container: MedusaContainer, paymentCollectionId: string): Promise<boolean> {
  const cartId = await cartIdOfCollection(container.resolve(ContainerRegistrationKeys.QUERY), paymentCollectionId)
  if (!cartId) return false
  await clearExpiredLeases(container, [cartId])
  const held = await leaseHeld(container, cartId)
  if (held !== undefined) return held
  const locking = container.resolve(Modules.LOCKING)
  const probe = `paybright:probe:${randomUUID()}`
  try {
    await locking.acquire(cartId, { ownerId: probe, expire: 5 })
  } catch {
    return true
  }
  // Not given back (the lock store blinked), the probe's five-second lease lapses by itself.
  await locking.release(cartId, { ownerId: probe }).catch(() => undefined)
  return false
}
