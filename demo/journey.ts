import { PAYBRIGHT_PROVIDER_ID } from "../src/storefront/provider"
import Medusa from "@medusajs/js-sdk"
import { MathBN } from "@medusajs/framework/utils"
import { lenderAmount, lenderMovements } from "../src/lib/lender-cents"
import type { Simulator } from "../src/lenders/paybright/simulator"
import { readPayBrightReturn } from "../src/storefront/return"
import { formWithButton, submit } from "../test-support/html-form"
import { step } from "./progress"
import type { SeededStore } from "../test-support/seed-store"
import { SHOPPER_ADDRESS } from "../test-support/shopper-address"

export type JourneyContext = {
  /** The Medusa server, e.g. http://localhost:9000. */
  storeUrl: string
  seeded: SeededStore
  admin: { email: string; password: string }
  simulator: Simulator
  /** What the merchant refunds at the end, a two-decimal string. Default "25.00". */
  refund?: string
}

/** Two-decimal strings, as the lender writes amounts; the table compares them as text. */
export type Books = { authorized: string; captured: string; refunded: string; captures: string[]; refunds: string[] }

export type JourneyResult = {
  orderId: string
  displayId?: number
  paymentId: string
  gatewayReference: string
  /** Who captured: the plugin at shipment, the admin by hand, or both (for a part each). */
  capturedBy: { atShipment: string[]; byAdmin?: string }
  medusa: Books
  lender: Books
}

type Redirect = { url: string; method: string; fields: Record<string, string> }
type Amount = Parameters<typeof MathBN.convert>[0]

const PROVIDER_ID = PAYBRIGHT_PROVIDER_ID

/**
 * A shopper buys two products with PayBright, then the merchant ships them in two parcels, gets
 * paid and refunds part; every step over real HTTP, with Medusa's JS SDK as a storefront and the
 * admin use it, and with plain form posts on the lender's page as a browser makes them. Answers
 * both sets of books, as recorded by Medusa and by the lender (the simulator).
 */
export async function runJourney(context: JourneyContext): Promise<JourneyResult> {
  const { storeUrl, seeded, simulator } = context
  const shop = new Medusa({ baseUrl: storeUrl, publishableKey: seeded.publishableKey })
  const admin = new Medusa({ baseUrl: storeUrl, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } })
  const [first, , third] = seeded.variants

  const cart = await step("Shopper fills a cart", async (note) => {
    const { cart } = await shop.store.cart.create({
      region_id: seeded.regionId,
      email: "jeanne.tremblay@example.com",
      shipping_address: SHOPPER_ADDRESS,
      billing_address: SHOPPER_ADDRESS,
    })
    await shop.store.cart.createLineItem(cart.id, { variant_id: first.id, quantity: 1 })
    await shop.store.cart.createLineItem(cart.id, { variant_id: third.id, quantity: 2 })
    const { cart: ready } = await shop.store.cart.addShippingMethod(cart.id, { option_id: seeded.shippingOptionId })
    note(`1 × ${first.title}, 2 × ${third.title}, shipping and HST: ${money(ready.total)} CAD`)
    return ready
  })

  const session = await step("Shopper picks PayBright", async (note) => {
    const { payment_collection } = await shop.store.payment.initiatePaymentSession(cart, { provider_id: PROVIDER_ID })
    const session = payment_collection.payment_sessions?.find((candidate) => candidate.provider_id === PROVIDER_ID)
    const redirect = (session?.data as { redirect?: Redirect } | undefined)?.redirect
    if (!session || !redirect) throw new Error("the payment session has no data.redirect")
    note(`signed form for ${redirect.fields.x_amount} ${redirect.fields.x_currency}`)
    return { id: session.id, redirect }
  })

  const returnUrl = await step("Shopper applies at PayBright and is approved (simulator)", async (note) => {
    // The browser posts the session's form to the lender, which answers its application page.
    const { redirect } = session
    const page = await submit({ action: redirect.url, method: redirect.method ?? "POST", fields: redirect.fields })
    const html = await page.text()
    if (page.status !== 200) throw new Error(`the application page answered ${page.status}: ${html.slice(0, 300)}`)
    // The shopper clicks Approve: the page's own form, posted as the browser would.
    const decided = await submit(formWithButton(html, "approve", redirect.url))
    const location = decided.headers.get("location")
    if (decided.status !== 303 || !location)
      throw new Error(`the decision answered ${decided.status}, not a 303 to the store`)
    note(`contract ${new URL(location).searchParams.get("x_gateway_reference")}`)
    return location
  })

  const orderId = await step("Shopper returns to the store: order placed", async (note) => {
    const back = await fetch(returnUrl, { redirect: "manual" })
    const storefront = back.headers.get("location") ?? ""
    // The storefront's return route reads it with the storefront kit, as a storefront does.
    const landed = storefront ? readPayBrightReturn(storefront) : undefined
    if (back.status !== 303 || landed?.kind !== "order")
      throw new Error(`/paybright/return answered ${back.status} ${storefront || "without a location"}`)
    note(landed.orderId)
    return landed.orderId
  })

  await step("Lender's callback delivered", async (note) => {
    // Either the return or the callback places the order; the callback must still be answered 200.
    for (let i = 0; i < 150; i++) {
      const delivered = simulator.callbacks().find((entry) => entry.reference === session.id && entry.status === 200)
      if (delivered) return note(`HTTP 200 on attempt ${delivered.attempt}`)
      await sleep(100)
    }
    const attempts = simulator.callbacks().filter((entry) => entry.reference === session.id)
    throw new Error(
      `the store did not answer the lender's callback with 200 (${attempts.map((entry) => entry.status ?? entry.error).join(", ") || "no attempt yet"})`
    )
  })

  const order = await step("Merchant finds the order in the admin", async (note) => {
    await admin.auth.login("user", "emailpass", { email: context.admin.email, password: context.admin.password })
    const { order } = await admin.admin.order.retrieve(orderId, {
      fields:
        "id,display_id,status,payment_status,total,*items,payment_collections.payments.id,payment_collections.payments.data",
    })
    const payment = order.payment_collections?.[0]?.payments?.[0]
    if (!payment) throw new Error(`order ${orderId} has no payment`)
    if (order.payment_status !== "authorized")
      throw new Error(`order ${orderId}'s payment is ${order.payment_status}, not authorized`)
    note(`#${order.display_id}, ${order.status}, payment ${order.payment_status}, ${money(order.total)} CAD`)
    return { ...order, payment }
  })
  const paymentId = order.payment.id
  const gatewayReference = (order.payment.data as { gateway_reference?: string } | undefined)?.gateway_reference
  if (!gatewayReference) throw new Error(`payment ${paymentId} has no gateway_reference`)

  const atShipment: string[] = []
  for (const [index, item] of (order.items ?? []).entries()) {
    await step(`Parcel ${index + 1} shipped: ${item.quantity} × ${item.title}`, async (note) => {
      const before = await captureAmounts(admin, paymentId)
      const { order: fulfilled } = await admin.admin.order.createFulfillment(
        orderId,
        { items: [{ id: item.id, quantity: item.quantity }], location_id: seeded.stockLocationId },
        { fields: "id,fulfillments.id,fulfillments.created_at,fulfillments.shipped_at" }
      )
      const fulfillment = (fulfilled.fulfillments ?? [])
        .filter((candidate) => !candidate.shipped_at)
        .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)))
        .at(-1)
      if (!fulfillment) throw new Error("the fulfillment was not created")
      await admin.admin.order.createShipment(orderId, fulfillment.id, {
        items: [{ id: item.id, quantity: item.quantity }],
      })
      // The plugin captures at shipment (captureOn "shipment") after the event; a store without
      // it, or with captureOn "manual", shows no new capture here and is captured by hand below.
      const captured = await newCapture(admin, paymentId, before.length)
      if (captured) atShipment.push(captured)
      note(captured ? `${captured} CAD captured at shipment` : "no capture at shipment")
    })
  }

  const byAdmin = await step("Merchant is paid: capture what is left", async (note) => {
    const { payment } = await admin.admin.payment.retrieve(paymentId, { fields: "id,amount,captures.amount" })
    const remaining = MathBN.sub(payment.amount as Amount, sumOf(payment.captures ?? []))
    if (!MathBN.gt(remaining, 0)) {
      note(`all captured at shipment (${atShipment.join(" + ")} CAD)`)
      return undefined
    }
    // Without an amount Medusa captures the whole payment; after a capture at shipment only the
    // rest is left to capture, so that is named, to the last fraction of a cent Medusa computed:
    // the lender captures what remains of the contract.
    await admin.admin.payment.capture(
      paymentId,
      (payment.captures ?? []).length ? { amount: Number(remaining.toString()) } : {}
    )
    note(`${lenderAmount(remaining)} CAD captured from the admin`)
    return lenderAmount(remaining)
  })

  const refund = context.refund ?? "25.00"
  await step(`Merchant refunds ${refund} CAD`, async (note) => {
    await admin.admin.payment.refund(paymentId, { amount: Number(refund) })
    note("a partial refund, at the lender")
  })

  const { payment: recorded } = await admin.admin.payment.retrieve(paymentId, {
    fields: "id,amount,captures.amount,captures.created_at,refunds.amount,refunds.created_at",
  })
  const contract = simulator.contract(gatewayReference)
  if (!contract) throw new Error(`the simulator has no contract ${gatewayReference}`)
  // In the order they were made, as the lender lists them, and in cents, as the lender moved them.
  const medusaCaptures = lenderMovements(byTime(recorded.captures ?? []).map((row) => row.amount as Amount))
  const medusaRefunds = lenderMovements(byTime(recorded.refunds ?? []).map((row) => row.amount as Amount))
  return {
    orderId,
    displayId: order.display_id,
    paymentId,
    gatewayReference,
    capturedBy: { atShipment, byAdmin },
    medusa: {
      authorized: money(recorded.amount),
      captured: lenderAmount(sumOf(recorded.captures ?? [])),
      refunded: lenderAmount(sumOf(recorded.refunds ?? [])),
      captures: medusaCaptures,
      refunds: medusaRefunds,
    },
    lender: {
      authorized: contract.authorized,
      captured: contract.captured,
      refunded: contract.refunded,
      captures: contract.captures.map((capture) => capture.amount),
      refunds: contract.refunds.map((entry) => entry.amount),
    },
  }
}

async function captureAmounts(admin: Medusa, paymentId: string): Promise<string[]> {
  const { payment } = await admin.admin.payment.retrieve(paymentId, {
    fields: "id,captures.amount,captures.created_at",
  })
  return byTime(payment.captures ?? []).map((capture) => money(capture.amount))
}

/** A capture made after the shipment, if one shows up within a few seconds. */
async function newCapture(admin: Medusa, paymentId: string, before: number): Promise<string | undefined> {
  for (let i = 0; i < 20; i++) {
    const captures = await captureAmounts(admin, paymentId)
    if (captures.length > before) return captures.at(-1)
    await sleep(200)
  }
  return undefined
}

function byTime<T extends { created_at?: unknown }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => new Date(String(a.created_at)).getTime() - new Date(String(b.created_at)).getTime())
}

/** Decimal sum (never floats): Medusa's own BigNumber arithmetic. */
function sumOf(rows: { amount: unknown }[]) {
  return rows.reduce((total, row) => MathBN.add(total, row.amount as Amount), MathBN.convert(0))
}

/** An amount in cents, rounded as the lender is asked for it. */
function money(value: unknown) {
  return lenderAmount(value as Amount)
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
