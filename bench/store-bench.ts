import { performance } from "node:perf_hooks"
import Medusa from "@medusajs/js-sdk"
import { step } from "../demo/progress"
import { paymentOf } from "../test-support/merchant"
import { inPool } from "../test-support/pool"
import { cartReadyToPay, createPaymentSession } from "../test-support/storefront"
import type { BenchStore } from "./bench-store"
import type { Contender, Session, Shopper } from "./contenders"
import { callsPerOrder } from "./remote-calls"

export const CONCURRENCY_LEVELS = [1, 10, 50] as const

export type BenchSizes = { samples: number; checkouts: Record<(typeof CONCURRENCY_LEVELS)[number], number> }

/** What was measured for one contender; latencies in milliseconds, one entry per sample. */
export type ContenderFigures = {
  sessionMs: number[]
  approvalMs: number[]
  captureMs: number[]
  checkoutsPerMinute: Record<number, number>
  callsBeforeCapture: Record<string, number>
  callsPerCapture: Record<string, number>
}

/**
 * Measures one contender on the bench store, one request at a time for latencies: `samples`
 * carts (built beforehand, untimed) each get a payment session (timed), are approved into an
 * order (timed), and captured in full from the admin API (timed); the remote calls of each phase
 * are counted. Then full checkouts at each concurrency level, for checkouts per minute.
 */
export async function measureContender(bench: BenchStore, contender: Contender, sizes: BenchSizes) {
  const { seeded } = bench.store
  const shopper: Shopper = {
    shop: new Medusa({ baseUrl: bench.server.url, publishableKey: seeded.publishableKey }),
    bench,
  }
  const admin = new Medusa({ baseUrl: bench.server.url, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } })
  await admin.auth.login("user", "emailpass", bench.store.admin)
  const name = contender.label

  const carts = await step(`${name}: ${sizes.samples} carts`, async () =>
    values(
      await inPool(sizes.samples, 8, (index) =>
        cartReadyToPay(shopper.shop, seeded, [index % 3], email(contender, index))
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
  const orders = await step(`${name}: approval to order, one at a time`, async () => {
    const orders: string[] = []
    for (const [index, cart] of carts.entries()) {
      const { ms, orderId } = await contender.approve(shopper, cart.cartId, sessions[index])
      approvalMs.push(ms)
      orders.push(orderId)
    }
    return orders
  })
  const beforeCaptures = bench.calls.snapshot()
  const captureMs: number[] = []
  await step(`${name}: captures from the admin, one at a time`, async () => {
    const payments = await Promise.all(orders.map((orderId) => paymentOf(admin, orderId)))
    for (const paymentId of payments) {
      const started = performance.now()
      await admin.admin.payment.capture(paymentId, {})
      captureMs.push(performance.now() - started)
    }
  })
  const afterCaptures = bench.calls.snapshot()

  const checkoutsPerMinute: Record<number, number> = {}
  for (const concurrency of CONCURRENCY_LEVELS) {
    const count = sizes.checkouts[concurrency]
    checkoutsPerMinute[concurrency] = await step(
      `${name}: ${count} checkouts at concurrency ${concurrency}`,
      async (note) => {
        const started = performance.now()
        const runs = await inPool(count, concurrency, async (index) => {
          const cart = await cartReadyToPay(
            shopper.shop,
            seeded,
            [index % 3],
            email(contender, 10_000 * concurrency + index)
          )
          const session = await createPaymentSession(shopper.shop, cart.paymentCollectionId, contender.providerId)
          return contender.place(shopper, cart.cartId, session)
        })
        values(runs)
        const perMinute = (count * 60_000) / (performance.now() - started)
        note(`${perMinute.toFixed(0)} per minute`)
        return perMinute
      }
    )
  }
  return {
    sessionMs,
    approvalMs,
    captureMs,
    checkoutsPerMinute,
    callsBeforeCapture: callsPerOrder(beforeSessions, beforeCaptures, orders.length),
    callsPerCapture: callsPerOrder(beforeCaptures, afterCaptures, orders.length),
  } satisfies ContenderFigures
}

/** Every shopper of the bench has an email of their own: Medusa creates a guest customer per email. */
function email(contender: Contender, index: number) {
  return `bench-${contender.key.toLowerCase()}-${index}@example.com`
}

/** The results of a pool, or its first error. */
function values<T>(runs: ({ ok: true; value: T } | { ok: false; error: unknown })[]): T[] {
  const failed = runs.find((run) => !run.ok)
  if (failed && !failed.ok) throw failed.error
  return runs.map((run) => (run as { value: T }).value)
}
