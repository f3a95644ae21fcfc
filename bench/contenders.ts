import { performance } from "node:perf_hooks"
import type Medusa from "@medusajs/js-sdk"
import { applyAtPayBright, returnToStore } from "../test-support/storefront"
import { PROVIDERS, type BenchStore } from "./bench-store"

export type Session = { id: string; data: Record<string, unknown> }
export type Shopper = { shop: Medusa; bench: BenchStore }

/** One way to pay, and how its payment turns into an order once the shopper is approved. */
export type Contender = {
  key: "system" | "stripe" | "inStore" | "virtualCard"
  label: string
  providerId: string
  /**
   * From approval to order, timed: the lender's callback (PayBright), Stripe's webhook until the
   * cart is completed (Stripe), the storefront's cart completion (system). What happens before
   * (the shopper at the lender, Stripe.js) is not timed. Answers the time and the order.
   */
  approve(shopper: Shopper, cartId: string, session: Session): Promise<{ ms: number; orderId: string }>
  /** The same, untimed, as a storefront does it in production (used for checkouts per minute). */
  place(shopper: Shopper, cartId: string, session: Session): Promise<string>
  /** Another way from approval to order worth timing beside `approve` (half the samples each). */
  alternative?: { label: string; approve: Contender["approve"] }
  /**
   * Which way's database statements are counted: the one that does not poll the store to learn
   * that the order exists (the peer's webhook path watches the cart; its storefront completion does not).
   */
  statementsOf?: "approve" | "alternative"
}

const system: Contender = {
  key: "system",
  label: "system (floor)",
  providerId: PROVIDERS.system,
  async approve(shopper, cartId) {
    const started = performance.now()
    const orderId = await completeCart(shopper.shop, cartId)
    return { ms: performance.now() - started, orderId }
  },
  place: (shopper, cartId) => completeCart(shopper.shop, cartId),
}

/** The lender's result reaches the store twice: its callback (timed) and the shopper's return. */
function payBright(key: "inStore" | "virtualCard", label: string, providerId: string): Contender {
  const approve: Contender["approve"] = async ({ bench }, _cartId, session) => {
    const { returnUrl, result } = await approvedAtLender(session)
    const started = performance.now()
    const callback = await deliverCallback(bench, result)
    const ms = performance.now() - started
    if (callback.status !== 200 || callback.result !== "placed")
      throw new Error(`the callback answered ${callback.status} ${JSON.stringify(callback)}`)
    const orderId = await returnToStore(returnUrl)
    if (!orderId) throw new Error("the shopper's return did not lead to the order")
    return { ms, orderId }
  }
  return {
    key,
    label,
    providerId,
    approve,
    place: async (shopper, cartId, session) => (await approve(shopper, cartId, session)).orderId,
    /**
     * As in life: the lender's callback and the shopper's browser arrive together. Timed until the
     * shopper's return answers with the placed order, whichever of the two places it.
     */
    alternative: {
      label: "the shopper's return racing the callback",
      async approve({ bench }, _cartId, session) {
        const { returnUrl, result } = await approvedAtLender(session)
        const started = performance.now()
        const callback = deliverCallback(bench, result)
        const orderId = await returnToStore(returnUrl)
        const ms = performance.now() - started
        const answered = await callback
        if (answered.status !== 200)
          throw new Error(`the callback answered ${answered.status} ${JSON.stringify(answered)}`)
        if (!orderId) throw new Error("the shopper's return did not land on the order")
        return { ms, orderId }
      },
    },
  }
}

/** The shopper approved on the hosted application: where the lender sends them back, and its signed result. */
async function approvedAtLender(session: Session) {
  const returnUrl = await applyAtPayBright(session)
  const result = Object.fromEntries([...new URL(returnUrl).searchParams].filter(([name]) => name.startsWith("x_")))
  return { returnUrl, result }
}

async function deliverCallback(bench: BenchStore, result: Record<string, string>) {
  const callback = await fetch(`${bench.server.url}/paybright/callback`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(result).toString(),
  })
  const answer = (await callback.json()) as { result?: string }
  return { status: callback.status, result: answer.result }
}

const stripe: Contender = {
  key: "stripe",
  label: "Stripe (peer)",
  providerId: PROVIDERS.stripe,
  async approve({ shop, bench }, cartId, session) {
    const intent = String(session.data.id)
    bench.stripe.confirmPaymentIntent(intent)
    const started = performance.now()
    const status = await bench.stripe.sendWebhook(webhookUrl(bench), "payment_intent.amount_capturable_updated", intent)
    if (status !== 200) throw new Error(`the webhook answered ${status}`)
    // Medusa completes the cart on its event bus after webhook_delay: watch the cart as a storefront would.
    for (;;) {
      const { cart } = await shop.store.cart.retrieve(cartId, { fields: "id,completed_at" })
      if (cart.completed_at) break
      if (performance.now() - started > 60_000) throw new Error(`cart ${cartId} not completed 60 s after the webhook`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    const ms = performance.now() - started
    return { ms, orderId: await completeCart(shop, cartId) }
  },
  /**
   * Medusa 2.21.2 ignores `webhook_delay`: its webhook route reads the option from a property the
   * payment module does not have, so every Stripe webhook waits the default 5 s. The storefront's
   * own completion after Stripe.js confirms is how Medusa's Next.js starter places the order.
   */
  statementsOf: "alternative",
  alternative: {
    label: "storefront completion",
    async approve({ shop, bench }, cartId, session) {
      bench.stripe.confirmPaymentIntent(String(session.data.id))
      const started = performance.now()
      const orderId = await completeCart(shop, cartId)
      return { ms: performance.now() - started, orderId }
    },
  },
  /** As Medusa's Next.js starter does: Stripe.js confirms, then the storefront completes; the webhook comes too. */
  async place({ shop, bench }, cartId, session) {
    const intent = String(session.data.id)
    bench.stripe.confirmPaymentIntent(intent)
    const webhook = bench.stripe.sendWebhook(webhookUrl(bench), "payment_intent.amount_capturable_updated", intent)
    const orderId = await completeCart(shop, cartId)
    if ((await webhook) !== 200) throw new Error("the webhook was refused")
    return orderId
  },
}

export const CONTENDERS: Contender[] = [
  system,
  stripe,
  payBright("inStore", "PayBright in-store", PROVIDERS.inStore),
  payBright("virtualCard", "PayBright virtual card", PROVIDERS.virtualCard),
]

function webhookUrl(bench: BenchStore) {
  return `${bench.server.url}/hooks/payment/stripe_stripe`
}

async function completeCart(shop: Medusa, cartId: string): Promise<string> {
  const completed = await shop.store.cart.complete(cartId)
  if (completed.type !== "order") throw new Error(`cart ${cartId} was not completed: ${completed.error?.message}`)
  return completed.order.id
}
