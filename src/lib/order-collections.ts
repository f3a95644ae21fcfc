import type { RemoteQueryFunction } from "@medusajs/framework/types"
import type { OrderCollectionRow } from "./carried-contract"

/** Every payment collection of an order, oldest first, with their payments and sessions. */
export async function orderCollections(
  query: { graph: RemoteQueryFunction["graph"] },
  orderId: string
): Promise<OrderCollectionRow[]> {
  const { data } = await query.graph({
    entity: "order",
    fields: [
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
    ],
    filters: { id: orderId },
  })
  const byAge = (a: { created_at?: unknown }, b: { created_at?: unknown }) =>
    new Date(String(a.created_at)).getTime() - new Date(String(b.created_at)).getTime()
  return ((data[0]?.payment_collections ?? []) as (OrderCollectionRow & { created_at?: unknown })[])
    .filter(Boolean)
    .sort(byAge)
    .map((collection) => ({ ...collection, payments: [...(collection.payments ?? [])].sort(byAge as never) }))
}
