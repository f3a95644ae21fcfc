import type { AxiosInstance } from "axios"
import type { SeededStore } from "../../test-support/seed-store"

type Admin = { headers: Record<string, string> }

/** The store the order-change suites seed: a sofa and a lamp whose price leaves fractions of a cent, both PayBright registrations. */
export const SOFA_AND_LAMPS_STORE = {
  providerIds: ["pp_paybright_paybright", "pp_paybright_capture-manually"],
  prices: [565, 33.3333],
  shippingPrice: 25,
}

/** The sofa-and-lamps store's order changes (a return, an exchange, an edit) through Medusa's Admin API, and the order's books after them. */
export function orderChangeDriver(api: AxiosInstance, fixture: () => { admin: Admin; store: SeededStore }) {
  const admin = () => fixture().admin

  /** The order as Medusa's admin shows it: totals, and every payment of every collection. */
  async function orderBooks(orderId: string) {
    const { data } = await api.get(
      `/admin/orders/${orderId}?fields=id,status,total,summary,*items,payment_collections.id,payment_collections.status,payment_collections.amount,payment_collections.payments.id,payment_collections.payments.amount,payment_collections.payments.canceled_at,payment_collections.payments.provider_id,payment_collections.payments.data,payment_collections.payments.captures.amount`,
      admin()
    )
    return data.order
  }

  function livePayments(order: any) {
    return order.payment_collections
      .flatMap((collection: any) => collection.payments ?? [])
      .filter((payment: any) => !payment.canceled_at)
  }

  /** The order once `done` says it is settled and a payment is live (a subscriber carries the contract after Medusa's event). */
  async function until(orderId: string, done: (order: any) => boolean) {
    for (let i = 0; i < 100; i++) {
      const books = await orderBooks(orderId)
      if (done(books) && livePayments(books).length) return books
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const books = await orderBooks(orderId)
    throw new Error(`order ${orderId} did not settle: ${JSON.stringify(books.payment_collections)}`)
  }

  async function requestReturn(orderId: string, itemId: string, quantity: number) {
    const { data } = await api.post(
      "/admin/returns",
      { order_id: orderId, location_id: fixture().store.stockLocationId },
      admin()
    )
    const returnId = data.return.id
    await api
      .post(`/admin/returns/${returnId}/request-items`, { items: [{ id: itemId, quantity }] }, admin())
      .catch((error: any) => {
        throw new Error(JSON.stringify(error.response?.data))
      })
    await api.post(`/admin/returns/${returnId}/request`, {}, admin())
    return returnId
  }

  /** The warehouse receives a requested return in full, and the merchant confirms it. */
  async function receiveReturn(returnId: string, itemId: string, quantity: number) {
    await api.post(`/admin/returns/${returnId}/receive`, {}, admin())
    await api.post(`/admin/returns/${returnId}/receive-items`, { items: [{ id: itemId, quantity }] }, admin())
    await api.post(`/admin/returns/${returnId}/receive/confirm`, {}, admin())
  }

  /** An exchange of one shipped lamp for another, requested. */
  async function exchangeLamp(orderId: string, lampId: string) {
    const { data } = await api.post("/admin/exchanges", { order_id: orderId }, admin())
    const exchangeId = data.exchange.id
    await api.post(`/admin/exchanges/${exchangeId}/inbound/items`, { items: [{ id: lampId, quantity: 1 }] }, admin())
    await api.post(
      `/admin/exchanges/${exchangeId}/outbound/items`,
      { items: [{ variant_id: fixture().store.variants[1].id, quantity: 1 }] },
      admin()
    )
    await api.post(`/admin/exchanges/${exchangeId}/request`, {}, admin())
  }

  /** An order edit setting one line's quantity, requested and confirmed. */
  async function editQuantity(orderId: string, itemId: string, quantity: number) {
    await editQuantities(orderId, [[itemId, quantity]])
  }

  /** One order edit setting several lines' quantities. */
  async function editQuantities(orderId: string, lines: [itemId: string, quantity: number][]) {
    await api.post("/admin/order-edits", { order_id: orderId }, admin())
    for (const [itemId, quantity] of lines) {
      await api.post(`/admin/order-edits/${orderId}/items/item/${itemId}`, { quantity }, admin())
    }
    await api.post(`/admin/order-edits/${orderId}/request`, {}, admin())
    await api.post(`/admin/order-edits/${orderId}/confirm`, {}, admin())
  }

  /** The order's entries in needs attention. */
  async function attentionOf(orderId: string) {
    const { data } = await api.get("/admin/paybright/attention", admin())
    return data.items.filter((item: any) => item.order_id === orderId)
  }

  return {
    orderBooks,
    livePayments,
    until,
    requestReturn,
    receiveReturn,
    exchangeLamp,
    editQuantity,
    editQuantities,
    attentionOf,
  }
}
