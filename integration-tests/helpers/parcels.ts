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

  /** The order's capture records once `count` of them have an outcome (the capture runs in a subscriber). */
  async function captures(orderId: string, count: number) {
    for (let i = 0; i < 100; i++) {
      const { data } = await api.get(`/admin/paybright/orders/${orderId}/captures`, fixture().admin)
      if (data.captures.filter((capture: any) => capture.state !== "pending").length >= count) return data.captures
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const { data } = await api.get(`/admin/paybright/orders/${orderId}/captures`, fixture().admin)
    throw new Error(`fewer than ${count} captures for ${orderId}: ${JSON.stringify(data.captures)}`)
  }

  return { fulfill, ship, captures }
}
