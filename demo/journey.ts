import Medusa from "@medusajs/js-sdk"
import { MathBN } from "@medusajs/framework/utils"
import type { Simulator } from "../src/simulator"
import { step } from "./progress"
import type { SeededStore } from "./seed-store"
import { SHOPPER_ADDRESS } from "./shopper-address"

export type JourneyContext = {
  storeUrl: string
  seeded: SeededStore
  admin: { email: string; password: string }
  simulator: Simulator
}

export type JourneyResult = {
  orderId: string
  paymentId: string
  gatewayReference: string
  medusa: { authorized: string; captured: string; refunded: string; captures: string[] }
  lender: { authorized: string; captured: string; refunded: string; captures: string[] }
}


/**
 * A shopper buys two products with PayBright and the merchant ships them in two parcels, captures
 * and refunds part; every step over real HTTP with Medusa's JS SDK, as a storefront and an admin
 * would.
 */
export async function runJourney(context: JourneyContext): Promise<JourneyResult> {
  const { storeUrl, seeded, simulator } = context
  const shop = new Medusa({ baseUrl: storeUrl, publishableKey: seeded.publishableKey })
  const admin = new Medusa({ baseUrl: storeUrl, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } })

  const cart = await step("Shopper fills a cart", async (note) => {
    const { cart } = await shop.store.cart.create({ region_id: seeded.regionId, email: "jeanne@example.com", shipping_address: SHOPPER_ADDRESS, billing_address: SHOPPER_ADDRESS })
    await shop.store.cart.createLineItem(cart.id, { variant_id: seeded.variants[0].id, quantity: 1 })
    await shop.store.cart.createLineItem(cart.id, { variant_id: seeded.variants[2].id, quantity: 2 })
    const { cart: ready } = await shop.store.cart.addShippingMethod(cart.id, { option_id: seeded.shippingOptionId })
    note(`${ready.items?.length} products, ${money(ready.total)} CAD with tax and shipping`)
    return ready
  })

  const session = await step("Shopper picks PayBright", async (note) => {
    const { payment_collection } = await shop.store.payment.initiatePaymentSession(cart, { provider_id: "pp_paybright_paybright" })
    const session = payment_collection.payment_sessions![0]
    note(`signed form for ${(session.data as any).redirect.fields.x_amount} CAD`)
    return session as typeof session & { data: { redirect: { url: string; fields: Record<string, string> } } }
  })

  const returnUrl = await step("PayBright application approved (simulator)", async (note) => {
    const { redirect } = session.data
    const page = await fetch(redirect.url, { method: "POST", body: new URLSearchParams(redirect.fields), redirect: "manual" })
    const html = await page.text()
    const applicationId = /name="application_id" value="([^"]+)"/.exec(html)?.[1]
    if (page.status !== 200 || !applicationId) throw new Error(`the application page answered ${page.status}`)
    const decided = await fetch(new URL("/CheckOut/decision", redirect.url), {
      method: "POST",
      body: new URLSearchParams({ application_id: applicationId, decision: "approve" }),
      redirect: "manual",
    })
    const location = decided.headers.get("location")
    if (decided.status !== 303 || !location) throw new Error(`the decision answered ${decided.status}`)
    note(`contract ${new URL(location).searchParams.get("x_gateway_reference")}`)
    return location
  })

  const orderId = await step("Shopper returns to the store: order placed", async (note) => {
    const back = await fetch(returnUrl, { redirect: "manual" })
    const confirmation = back.headers.get("location") ?? ""
    const orderId = /\/order\/([^/]+)\/confirmed/.exec(confirmation)?.[1]
    if (back.status !== 303 || !orderId) throw new Error(`the return route answered ${back.status} ${confirmation}`)
    note(orderId)
    return orderId
  })

  await step("Lender's callback delivered", async (note) => {
    for (let i = 0; i < 100; i++) {
      const delivered = simulator.callbacks().find((entry) => entry.reference === session.id && entry.status === 200)
      if (delivered) return note(`HTTP 200 on attempt ${delivered.attempt}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error("the store did not acknowledge the lender's callback")
  })

  await admin.auth.login("user", "emailpass", context.admin)
  const order = (await admin.admin.order.retrieve(orderId, { fields: "id,display_id,total,items.id,items.title,items.quantity,payment_collections.payments.id,payment_collections.payments.data" })).order
  const payment = order.payment_collections![0].payments![0]

  for (const [index, item] of order.items!.entries()) {
    await step(`Parcel ${index + 1} shipped: ${item.quantity} × ${item.title}`, async (note) => {
      const { order: fulfilled } = await admin.admin.order.createFulfillment(
        orderId,
        { items: [{ id: item.id, quantity: item.quantity }], location_id: seeded.stockLocationId },
        { fields: "id,fulfillments.id,fulfillments.created_at,fulfillments.shipped_at" }
      )
      const fulfillment = fulfilled.fulfillments!.filter((candidate) => !candidate.shipped_at).sort((a, b) => String(a.created_at).localeCompare(String(b.created_at))).at(-1)!
      await admin.admin.order.createShipment(orderId, fulfillment.id, { items: [{ id: item.id, quantity: item.quantity }] })
      const captures = await waitForCaptures(admin, payment.id, index + 1)
      note(captures.length > index ? `captured ${captures[index]} CAD at shipment` : "shipped")
    })
  }

  await step("Capture at the lender", async (note) => {
    const { payment: current } = await admin.admin.payment.retrieve(payment.id, { fields: "id,amount,captures.amount" })
    const remaining = MathBN.sub(current.amount as number, sumOf(current.captures)).toFixed(2)
    if (MathBN.gt(remaining, 0)) {
      // Without automatic capture at shipment, the merchant captures from the admin.
      await admin.admin.payment.capture(payment.id, { amount: Number(remaining) })
      note(`${remaining} CAD captured by the admin`)
    } else {
      note("everything was captured at shipment")
    }
  })

  const refund = "25.00"
  await step(`Merchant refunds ${refund} CAD`, async () => {
    await admin.admin.payment.refund(payment.id, { amount: Number(refund) })
  })

  const { payment: recorded } = await admin.admin.payment.retrieve(payment.id, { fields: "id,amount,captures.amount,refunds.amount" })
  const sum = (rows: { amount: unknown }[] | undefined) => sumOf(rows).toFixed(2)
  const gatewayReference = (payment.data as { gateway_reference: string }).gateway_reference
  const contract = simulator.contract(gatewayReference)!
  return {
    orderId,
    paymentId: payment.id,
    gatewayReference,
    medusa: {
      authorized: MathBN.convert(recorded.amount as number).toFixed(2),
      captured: sum(recorded.captures as never),
      refunded: sum(recorded.refunds as never),
      captures: (recorded.captures ?? []).map((capture) => MathBN.convert(capture.amount as number).toFixed(2)),
    },
    lender: {
      authorized: contract.authorized,
      captured: contract.captured,
      refunded: contract.refunded,
      captures: contract.captures.map((capture) => capture.amount),
    },
  }
}

/** Captures the plugin makes at shipment run after the event: give them a moment to land. */
async function waitForCaptures(admin: Medusa, paymentId: string, expected: number): Promise<string[]> {
  for (let i = 0; ; i++) {
    const { payment } = await admin.admin.payment.retrieve(paymentId, { fields: "id,captures.amount" })
    const captures = (payment.captures ?? []).map((capture) => money(capture.amount))
    if (captures.length >= expected || i >= 12) return captures
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

function sumOf(rows: { amount: unknown }[] | undefined) {
  return (rows ?? []).reduce((total, row) => MathBN.add(total, row.amount as number), MathBN.convert(0))
}

function money(value: unknown) {
  return MathBN.convert(value as number).toFixed(2)
}
