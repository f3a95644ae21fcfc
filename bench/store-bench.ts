import { performance } from "node:perf_hooks"
import Medusa from "@medusajs/js-sdk"
import { step } from "../demo/progress"
import { inPool } from "../test-support/pool"
import { cartReadyToPay, createPaymentSession } from "../test-support/storefront"
import type { BenchStore } from "./bench-store"
import type { Contender, Session, Shopper } from "./contenders"
import { callsPerOrder } from "./remote-calls"

export const CONCURRENCY_LEVELS = [1, 10, 50] as const

export type BenchSizes = {
  samples: number
  warmUp: number
  checkouts: Record<(typeof CONCURRENCY_LEVELS)[number], number>
}

/** What was measured for one contender; latencies in milliseconds, one entry per sample. */
export type ContenderFigures = {
  sessionMs: number[]
  approvalMs: number[]
  /** The contender's alternative way from approval to order, when it has one. */
  alternativeApprovalMs: number[]
  captureMs: number[]
  checkoutsPerMinute: Record<number, number>
  callsBeforeCapture: Record<string, number>
  callsPerCapture: Record<string, number>
  /** Statements the store ran on its database, per sample (empty when they cannot be counted). */
  queriesPerApproval: number[]
  queriesPerCapture: number[]
}

export type Clients = { shopper: Shopper; admin: Medusa }

/** A storefront and a logged-in admin on the bench store. */
export async function clients(bench: BenchStore): Promise<Clients> {
  const shop = new Medusa({ baseUrl: bench.server.url, publishableKey: bench.store.seeded.publishableKey })
  const admin = new Medusa({ baseUrl: bench.server.url, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } })
  await admin.auth.login("user", "emailpass", bench.store.admin)
  return { shopper: { shop, bench }, admin }
}

/** Full checkouts, untimed, so that no contender pays for a cold process, cold caches or JIT. */
export async function warmUp({ shopper }: Clients, contender: Contender, count: number) {
  await step(`${contender.label}: ${count} checkouts to warm up`, () => checkouts(shopper, contender, count, 1, 0))
}

/**
 * One request at a time: `samples` carts (built beforehand, untimed) each get a payment session
 * (timed), are approved into an order (timed), and captured in full from the admin API (timed).
 * The remote calls of each phase are counted, and the database statements of each approval and
 * each capture (read once the store is quiet again, outside the timed part).
 */
export async function measureLatencies({ shopper, admin }: Clients, contender: Contender, samples: number) {
  const { bench } = shopper
  const name = contender.label
  const carts = await step(`${name}: ${samples} carts`, async () =>
    values(
      await inPool(samples, 8, (index) =>
        cartReadyToPay(shopper.shop, bench.store.seeded, [index % 3], email(contender, "latency", index))
      )
    )
  )
  const beforeSessions = bench.calls.snapshot()
  const sessionMs: number[] = []
  const sessions = await step(`${name}: payment sessions, one at a time`, async () => {
    const sessions: Session[] = []
    for (const cart of carts) {
      const started = performance.now()
      sessions.push(await createPaymentSession(shopper.shop, cart.paymentCollectionId, contender.providerId))
      sessionMs.push(performance.now() - started)
    }
    return sessions
  })
  const approvalMs: number[] = []
  const alternativeApprovalMs: number[] = []
  const queriesPerApproval: number[] = []
  const orders = await step(`${name}: approval to order, one at a time`, async () => {
    const orders: string[] = []
    for (const [index, cart] of carts.entries()) {
      const alternative = contender.alternative && index % 2 === 1
      const approve = alternative ? contender.alternative!.approve : contender.approve
      const before = await bench.queries?.settledCount()
      const { ms, orderId } = await approve(shopper, cart.cartId, sessions[index])
      ;(alternative ? alternativeApprovalMs : approvalMs).push(ms)
      const counted = Boolean(alternative) === (contender.statementsOf === "alternative")
      if (before !== undefined && counted) queriesPerApproval.push((await bench.queries!.settledCount()) - before)
      orders.push(orderId)
    }
    return orders
  })
  const beforeCaptures = bench.calls.snapshot()
  const captureMs: number[] = []
  const queriesPerCapture: number[] = []
  await step(`${name}: captures from the admin, one at a time`, async () => {
    const payments = await Promise.all(orders.map((orderId) => paymentOfOrder(admin, orderId)))
    for (const { paymentId, amount } of payments) {
      const before = await bench.queries?.settledCount()
      const started = performance.now()
      // As Medusa's own Capture button sends it: the payment's amount, tax and its fractions of a cent included.
      await admin.admin.payment.capture(paymentId, { amount })
      captureMs.push(performance.now() - started)
      if (before !== undefined) queriesPerCapture.push((await bench.queries!.settledCount()) - before)
    }
  })
  const afterCaptures = bench.calls.snapshot()
  return {
    sessionMs,
    approvalMs,
    alternativeApprovalMs,
    captureMs,
    callsBeforeCapture: callsPerOrder(beforeSessions, beforeCaptures, orders.length),
    callsPerCapture: callsPerOrder(beforeCaptures, afterCaptures, orders.length),
    queriesPerApproval,
    queriesPerCapture,
  }
}

/** Full checkouts (cart, payment session, approval, order) at `concurrency`; answers checkouts per minute. */
export async function measureThroughput(
  { shopper }: Clients,
  contender: Contender,
  concurrency: number,
  count: number
) {
  return step(`${contender.label}: ${count} checkouts at concurrency ${concurrency}`, async (note) => {
    const started = performance.now()
    await checkouts(shopper, contender, count, concurrency, concurrency)
    const perMinute = (count * 60_000) / (performance.now() - started)
    note(`${perMinute.toFixed(0)} per minute`)
    return perMinute
  })
}

async function checkouts(shopper: Shopper, contender: Contender, count: number, concurrency: number, round: number) {
  values(
    await inPool(count, concurrency, async (index) => {
      const { seeded } = shopper.bench.store
      const cart = await cartReadyToPay(shopper.shop, seeded, [index % 3], email(contender, `c${round}`, index))
      const session = await createPaymentSession(shopper.shop, cart.paymentCollectionId, contender.providerId)
      return contender.place(shopper, cart.cartId, session)
    })
  )
}

/** Every shopper of the bench has an email of their own: Medusa creates a guest customer per email. */
function email(contender: Contender, round: string, index: number) {
  return `bench-${contender.key.toLowerCase()}-${round}-${index}@example.com`
}

/** The results of a pool, or its first error. */
function values<T>(runs: ({ ok: true; value: T } | { ok: false; error: unknown })[]): T[] {
  const failed = runs.find((run) => !run.ok)
  if (failed && !failed.ok) throw failed.error
  return runs.map((run) => (run as { value: T }).value)
}

/** The order's payment and its amount, as the admin reads them. */
async function paymentOfOrder(admin: Medusa, orderId: string): Promise<{ paymentId: string; amount: number }> {
  const { order } = await admin.admin.order.retrieve(orderId, {
    fields: "id,payment_collections.payments.id,payment_collections.payments.amount",
  })
  const payment = order.payment_collections?.[0]?.payments?.[0]
  if (!payment) throw new Error(`order ${orderId} has no payment`)
  return { paymentId: payment.id, amount: payment.amount }
}
