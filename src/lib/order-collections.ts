import type { RemoteQueryFunction } from "@medusajs/framework/types"
import type { OrderCollectionRow, OrderOfContract } from "./carried-contract"

type Query = { graph: RemoteQueryFunction["graph"] }

/** Every payment collection of an order, oldest first, with their payments and sessions. */
export async function orderCollections(query: Query, orderId: string): Promise<OrderCollectionRow[]> {
  return (await orderOfContract(query, orderId)).collections
}

/** An order's status, and every payment collection of it, oldest first, with their payments and sessions. */
export async function orderOfContract(query: Query, orderId: string): Promise<OrderOfContract> {
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "status",
      "payment_collections.id",
      "payment_collections.status",
      "payment_collections.amount",
      "payment_collections.raw_amount",
      "payment_collections.currency_code",
      "payment_collections.created_at",
      "payment_collections.payments.id",
      "payment_collections.payments.provider_id",
      "payment_collections.payments.amount",
      "payment_collections.payments.raw_amount",
      "payment_collections.payments.canceled_at",
      "payment_collections.payments.created_at",
      "payment_collections.payments.data",
      "payment_collections.payments.captures.amount",
      "payment_collections.payments.captures.raw_amount",
      "payment_collections.payment_sessions.id",
      "payment_collections.payment_sessions.provider_id",
      "payment_collections.payment_sessions.status",
      "payment_collections.payment_sessions.amount",
      "payment_collections.payment_sessions.raw_amount",
      "payment_collections.payment_sessions.data",
    ],
    filters: { id: orderId },
  })
  const byAge = (a: { created_at?: unknown }, b: { created_at?: unknown }) =>
    new Date(String(a.created_at)).getTime() - new Date(String(b.created_at)).getTime()
  const collections = ((data[0]?.payment_collections ?? []) as (OrderCollectionRow & { created_at?: unknown })[])
    .filter(Boolean)
    .sort(byAge)
    .map((collection) => ({ ...collection, payments: [...(collection.payments ?? [])].sort(byAge as never) }))
  return { status: String(data[0]?.status ?? ""), collections }
}
