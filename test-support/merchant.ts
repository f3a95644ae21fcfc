import type Medusa from "@medusajs/js-sdk"
import type { SeededStore } from "./seed-store"
import { isOutage, throughOutages } from "./outage"

type Fulfillment = { id: string; shipped_at?: unknown; created_at?: unknown; items?: { line_item_id?: string }[] }

/**
 * Ships an order from the admin API as a merchant does: one fulfillment per parcel, each marked
 * shipped; the plugin captures each parcel when its shipment is created (on a worker).
 * `parcels` 1 ships every item together, 2 ships the first item alone and the rest after it.
 * When the store does not answer, the merchant looks at the order before pressing again, so a
 * parcel the store did create is not created twice.
 */
export async function shipInParcels(admin: Medusa, seeded: SeededStore, orderId: string, parcels: 1 | 2) {
  const { order } = await throughOutages(() => admin.admin.order.retrieve(orderId, { fields: "id,*items" }))
  const items = (order.items ?? []).map((item) => ({ id: item.id, quantity: item.quantity }))
  const groups = parcels === 1 || items.length < 2 ? [items] : [items.slice(0, 1), items.slice(1)]
  for (const group of groups) {
    const parcelOf = async () => {
      const fulfillments = await fulfillmentsOf(admin, orderId)
      const ids = group.map((item) => item.id).sort()
      return fulfillments.find(
        (candidate) =>
          JSON.stringify((candidate.items ?? []).map((item) => item.line_item_id).sort()) === JSON.stringify(ids)
      )
    }
    const created = async () => (await parcelOf()) !== undefined
    await pressedOnce(
      () => admin.admin.order.createFulfillment(orderId, { items: group, location_id: seeded.stockLocationId }),
      created
    )
    const fulfillment = await parcelOf()
    if (!fulfillment) throw new Error(`order ${orderId}: the fulfillment was not created`)
    if (fulfillment.shipped_at) continue
    const shipped = async () =>
      (await fulfillmentsOf(admin, orderId)).some(
        (candidate) => candidate.id === fulfillment.id && candidate.shipped_at
      )
    await pressedOnce(() => admin.admin.order.createShipment(orderId, fulfillment.id, { items: group }), shipped)
  }
  return groups.length
}

async function fulfillmentsOf(admin: Medusa, orderId: string): Promise<Fulfillment[]> {
  const { order } = await throughOutages(() =>
    admin.admin.order.retrieve(orderId, {
      fields: "id,fulfillments.id,fulfillments.shipped_at,fulfillments.created_at,fulfillments.items.line_item_id",
    })
  )
  return (order.fulfillments ?? []) as Fulfillment[]
}

/** The order's payment id, for refunds and for comparing books. */
export async function paymentOf(admin: Medusa, orderId: string): Promise<string> {
  const { order } = await throughOutages(() =>
    admin.admin.order.retrieve(orderId, { fields: "id,payment_collections.payments.id" })
  )
  const payment = order.payment_collections?.[0]?.payments?.[0]
  if (!payment) throw new Error(`order ${orderId} has no payment`)
  return payment.id
}

/** Refunds `amount` once; after an outage, the payment's refunds say whether it was made. */
export async function refund(admin: Medusa, paymentId: string, amount: number) {
  const before = (await capturesOf(admin, paymentId)).refunds
  const made = async () => (await capturesOf(admin, paymentId)).refunds > before
  await pressedOnce(() => admin.admin.payment.refund(paymentId, { amount }), made)
}

/** How many captures and refunds Medusa records on the payment, and whether it counts it fully captured. */
export async function capturesOf(admin: Medusa, paymentId: string) {
  const { payment } = await throughOutages(() =>
    admin.admin.payment.retrieve(paymentId, { fields: "id,captured_at,captures.id,refunds.id" })
  )
  return {
    captures: (payment.captures ?? []).length,
    refunds: (payment.refunds ?? []).length,
    fullyCaptured: Boolean(payment.captured_at),
  }
}

let conflictsRetried = 0

/** How many merchant actions were pressed again after a 409, for the suite's report. */
export function merchantConflictsRetried() {
  return conflictsRetried
}

/**
 * Presses a merchant action that must happen once. Medusa answers 409 ("you may retry the
 * request") when an action's workflow could not take a lock in time, and undoes it: the merchant
 * presses again a few seconds later, as a person would. When the store does not answer (or fails
 * on its side), the action may or may not have been done: the merchant looks (`doneAlready`)
 * before pressing again.
 */
async function pressedOnce(action: () => Promise<unknown>, doneAlready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 300_000
  for (;;) {
    try {
      await action()
      return
    } catch (error) {
      if (Date.now() > deadline) throw error
      if ((error as { status?: number }).status === 409) {
        conflictsRetried++
        await new Promise((resolve) => setTimeout(resolve, 5_000))
      } else if (isOutage(error)) {
        await new Promise((resolve) => setTimeout(resolve, 2_000))
        if (await throughOutages(doneAlready)) return
      } else {
        throw error
      }
    }
  }
}
