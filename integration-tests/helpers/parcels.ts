import type { AxiosInstance } from "axios"
import type { SeededStore } from "../../test-support/seed-store"

type Admin = { headers: Record<string, string> }
type Lines = { id: string; quantity: number }[]

/** The merchant's side of a shipment through the Admin API, and the captures it leads to. */
export function parcels(api: AxiosInstance, fixture: () => { admin: Admin; store: SeededStore }) {
  /** Packs items into a new fulfillment; answers its id. */
  async function fulfill(orderId: string, items: Lines) {
    const { data } = await api.post(
      `/admin/orders/${orderId}/fulfillments?fields=fulfillments.id,fulfillments.created_at`,
      { items, location_id: fixture().store.stockLocationId },
      fixture().admin
    )
    return [...data.order.fulfillments]
      .sort((a: any, b: any) => String(a.created_at).localeCompare(String(b.created_at)))
      .at(-1).id as string
  }

  /** Packs and ships items; answers the fulfillment's id. */
  async function ship(orderId: string, items: Lines) {
    const fulfillmentId = await fulfill(orderId, items)
    await api.post(`/admin/orders/${orderId}/fulfillments/${fulfillmentId}/shipments`, { items }, fixture().admin)
    return fulfillmentId
  }

  /**
   * The order's capture records once `count` of them have an outcome (the capture runs in a
   * subscriber) and, unless `booked` is false, Medusa has booked each one made on the order. The
   * lender's answer concludes the record inside Medusa's capture workflow, which writes the order's
   * transaction after it: an order change confirmed in between reads the order as if nothing had
   * been paid yet.
   */
  async function captures(orderId: string, count: number, { booked = true } = {}) {
    for (let i = 0; i < 100; i++) {
      const { data } = await api.get(`/admin/paybright/orders/${orderId}/captures`, fixture().admin)
      const concluded = data.captures.filter((capture: any) => capture.state !== "pending")
      if (concluded.length >= count && (!booked || (await bookedOnOrder(orderId, concluded)))) return data.captures
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const { data } = await api.get(`/admin/paybright/orders/${orderId}/captures`, fixture().admin)
    throw new Error(`fewer than ${count} captures booked for ${orderId}: ${JSON.stringify(data.captures)}`)
  }

  /** Whether the order holds a transaction for each of the records' Medusa captures that was made. */
  async function bookedOnOrder(orderId: string, records: { state: string; medusa_id: string | null }[]) {
    const made = records.filter((record) => record.state === "done" && record.medusa_id)
    if (!made.length) return true
    const { data } = await api.get(`/admin/orders/${orderId}?fields=id,transactions.reference_id`, fixture().admin)
    const booked = new Set(
      data.order.transactions.map((transaction: { reference_id: string }) => transaction.reference_id)
    )
    return made.every((record) => booked.has(record.medusa_id))
  }

  return { fulfill, ship, captures }
}
