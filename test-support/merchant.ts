import type Medusa from "@medusajs/js-sdk"
import type { SeededStore } from "./seed-store"

/**
 * Ships an order from the admin API as a merchant does: one fulfillment per parcel, each marked
 * shipped; the plugin captures each parcel when its shipment is created (on a worker).
 * `parcels` 1 ships every item together, 2 ships the first item alone and the rest after it.
 */
export async function shipInParcels(admin: Medusa, seeded: SeededStore, orderId: string, parcels: 1 | 2) {
  const { order } = await admin.admin.order.retrieve(orderId, { fields: "id,*items" })
  const items = (order.items ?? []).map((item) => ({ id: item.id, quantity: item.quantity }))
  const groups = parcels === 1 || items.length < 2 ? [items] : [items.slice(0, 1), items.slice(1)]
  for (const group of groups) {
    const { order: fulfilled } = await againOnConflict(() =>
      admin.admin.order.createFulfillment(
        orderId,
        { items: group, location_id: seeded.stockLocationId },
        { fields: "id,fulfillments.id,fulfillments.shipped_at,fulfillments.created_at" }
      )
    )
    const fulfillment = (fulfilled.fulfillments ?? [])
      .filter((candidate) => !candidate.shipped_at)
      .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)))
      .at(-1)
    if (!fulfillment) throw new Error(`order ${orderId}: the fulfillment was not created`)
    await againOnConflict(() => admin.admin.order.createShipment(orderId, fulfillment.id, { items: group }))
  }
  return groups.length
}

/** The order's payment id, for refunds and for comparing books. */
export async function paymentOf(admin: Medusa, orderId: string): Promise<string> {
  const { order } = await admin.admin.order.retrieve(orderId, { fields: "id,payment_collections.payments.id" })
  const payment = order.payment_collections?.[0]?.payments?.[0]
  if (!payment) throw new Error(`order ${orderId} has no payment`)
  return payment.id
}

/** Waits for the captures made at shipment (on the workers), then refunds `amount` from the admin API. */
export async function refundOnceCaptured(admin: Medusa, paymentId: string, captures: number, amount: number) {
  const deadline = Date.now() + 120_000
  for (;;) {
    const { payment } = await admin.admin.payment.retrieve(paymentId, { fields: "id,captures.id" })
    if ((payment.captures ?? []).length >= captures) break
    if (Date.now() > deadline) throw new Error(`payment ${paymentId}: ${captures} captures not made within 2 minutes`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await againOnConflict(() => admin.admin.payment.refund(paymentId, { amount }))
}

let conflictsRetried = 0

/** How many merchant actions were pressed again after a 409, for the suite's report. */
export function merchantConflictsRetried() {
  return conflictsRetried
}

/**
 * Medusa answers 409 ("you may retry the request") when an action's workflow could not take a lock
 * in time, and undoes it: the merchant presses again a few seconds later, as a person would.
 */
async function againOnConflict<T>(action: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 150_000
  for (;;) {
    try {
      return await action()
    } catch (error) {
      if ((error as { status?: number }).status !== 409 || Date.now() > deadline) throw error
      conflictsRetried++
      await new Promise((resolve) => setTimeout(resolve, 5_000))
    }
  }
}
