import type { RemoteQueryFunction } from "@medusajs/framework/types"

/**
 * The plugin's reads of Medusa's module links (order ↔ payment collection, order ↔ cart, cart ↔
 * payment collection, order ↔ fulfillment), one function per question, so that every file asks a
 * link the same way. Each takes Medusa's query: the caller's scope's, or the application's where
 * Medusa hands none (the provider).
 *
 * Where `fields` are asked of the other side (`display_id`, `payments.id`, ...), they are read
 * through the link, and a side Medusa removed is then absent; without fields, only the link's own
 * key is read, and answered as `{ id }` even when that side is gone.
 */
export type LinkQuery = Pick<RemoteQueryFunction, "graph">

type Linked = { id: string }

/** The other side of each link row, by the key of the side asked from. */
async function linked<Side extends Linked>(
  query: LinkQuery,
  link: { entity: string; from: string; to: string; toKey: string },
  ids: string[],
  fields: string[]
): Promise<Map<string, Side[]>> {
  const found = new Map<string, Side[]>()
  const unique = [...new Set(ids)]
  if (unique.length === 0) return found
  const { data } = await query.graph({
    entity: link.entity,
    fields: [link.from, link.toKey, ...fields.map((field) => `${link.to}.${field}`)],
    filters: { [link.from]: unique },
  })
  for (const row of data as Record<string, any>[]) {
    const other = fields.length ? row[link.to] : { id: row[link.toKey] }
    if (!other) continue
    found.set(row[link.from], [...(found.get(row[link.from]) ?? []), { ...other, id: row[link.toKey] } as Side])
  }
  return found
}

const ORDER_OF_COLLECTION = {
  entity: "order_payment_collection",
  from: "payment_collection_id",
  to: "order",
  toKey: "order_id",
}
const COLLECTION_OF_ORDER = {
  entity: "order_payment_collection",
  from: "order_id",
  to: "payment_collection",
  toKey: "payment_collection_id",
}

/** The order of each of these payment collections (a cart's has none yet), by collection id. */
export async function ordersOfCollections<Order extends Linked = Linked>(
  query: LinkQuery,
  paymentCollectionIds: string[],
  fields: string[] = []
): Promise<Map<string, Order>> {
  const links = await linked<Order>(query, ORDER_OF_COLLECTION, paymentCollectionIds, fields)
  return new Map([...links].map(([collectionId, [order]]) => [collectionId, order]))
}

/** The order of a payment collection, if it has one yet. */
export async function orderOfCollection<Order extends Linked = Linked>(
  query: LinkQuery,
  paymentCollectionId: string,
  fields: string[] = []
): Promise<Order | undefined> {
  return (await ordersOfCollections<Order>(query, [paymentCollectionId], fields)).get(paymentCollectionId)
}

/** The payment collections of each of these orders, by order id. */
export async function collectionsOfOrders<Collection extends Linked = Linked>(
  query: LinkQuery,
  orderIds: string[],
  fields: string[] = []
): Promise<Map<string, Collection[]>> {
  return linked<Collection>(query, COLLECTION_OF_ORDER, orderIds, fields)
}

/** The cart's order, as linked: the link may outlive the order (see find-checkout's orderOfCart). */
export async function orderIdOfCart(query: LinkQuery, cartId: string): Promise<string | undefined> {
  const links = await linked(
    query,
    { entity: "order_cart", from: "cart_id", to: "order", toKey: "order_id" },
    [cartId],
    []
  )
  return links.get(cartId)?.[0]?.id
}

/** The payment collection the cart pays with, if it has one yet. */
export async function collectionIdOfCart(query: LinkQuery, cartId: string): Promise<string | undefined> {
  const links = await linked(
    query,
    { entity: "cart_payment_collection", from: "cart_id", to: "payment_collection", toKey: "payment_collection_id" },
    [cartId],
    []
  )
  return links.get(cartId)?.[0]?.id
}

/** The cart a payment collection pays for; none for an order's collection made after placement. */
export async function cartIdOfCollection(query: LinkQuery, paymentCollectionId: string): Promise<string | undefined> {
  const links = await linked(
    query,
    { entity: "cart_payment_collection", from: "payment_collection_id", to: "cart", toKey: "cart_id" },
    [paymentCollectionId],
    []
  )
  return links.get(paymentCollectionId)?.[0]?.id
}

/** The order of each of these fulfillments, by fulfillment id. */
export async function orderIdsOfFulfillments(query: LinkQuery, fulfillmentIds: string[]): Promise<Map<string, string>> {
  const links = await linked(
    query,
    { entity: "order_fulfillment", from: "fulfillment_id", to: "order", toKey: "order_id" },
    fulfillmentIds,
    []
  )
  return new Map([...links].map(([fulfillmentId, [order]]) => [fulfillmentId, order.id]))
}

/** The order a fulfillment belongs to, if any. */
export async function orderIdOfFulfillment(query: LinkQuery, fulfillmentId: string): Promise<string | undefined> {
  return (await orderIdsOfFulfillments(query, [fulfillmentId])).get(fulfillmentId)
}
