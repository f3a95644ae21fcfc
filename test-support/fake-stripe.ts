import http from "node:http"
import { randomBytes } from "node:crypto"
import type { AddressInfo } from "node:net"
import { passesLuhn } from "../src/simulator/luhn"
import { FakePaymentIntents, type FakeIntent } from "./fake-stripe-intents"
import { sendStripeEvent } from "./stripe-webhook"

/**
 * A small stand-in for the Stripe API, for tests and the demo: PaymentIntents confirmed with raw
 * card data, and refunds. It is strict about what it receives (unknown parameters, bad cards and
 * missing fields are refused the way Stripe refuses them) and keeps only the last four digits.
 * It also plays Stripe for Medusa's own Stripe provider (fake-stripe-intents.ts): unconfirmed
 * PaymentIntents, confirmed as Stripe.js would, and signed webhooks about them.
 */
export type FakeStripeCharge = {
  id: string
  amount: number
  currency: string
  last4: string
  refunded: number
  idempotencyKey?: string
  metadata: Record<string, string>
}

export type FakeStripe = {
  url: string
  host: string
  port: number
  secretKey: string
  charges(): FakeStripeCharge[]
  /** The webhook signing secret (whsec_…) events are signed with. */
  webhookSecret: string
  /** Every request received, oldest first, with object ids replaced by `:id` in the path. */
  requests(): { method: string; path: string }[]
  /** Confirms an unconfirmed PaymentIntent as Stripe.js does in the shopper's browser. */
  confirmPaymentIntent(id: string): FakeIntent
  /** Sends a signed event about a PaymentIntent (e.g. payment_intent.amount_capturable_updated); answers the HTTP status. */
  sendWebhook(url: string, type: string, paymentIntentId: string): Promise<number>
  /** Makes the next charge fail as Stripe would: "card_declined", "expired_card", or "network" (connection dropped). */
  failNextCharge(code: "card_declined" | "expired_card" | "network"): void
  close(): Promise<void>
}

const PAYMENT_INTENT_PARAMS = new Set([
  "amount",
  "currency",
  "confirm",
  "capture_method",
  "payment_method_types",
  "payment_method_data",
  "description",
  "metadata",
])

/** A card transaction as the card network sees it, for wiring the fake to the lender simulator. */
export type CardNetworkEvent = { pan: string; kind: "charge" | "refund"; amount: string; reference: string }

export async function startFakeStripe(
  options: { secretKey?: string; webhookSecret?: string; onCardTransaction?: (event: CardNetworkEvent) => void } = {}
): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? "sk_test_fake_stripe_for_tests"
  const webhookSecret = options.webhookSecret ?? "whsec_fake_stripe_for_tests"
  const intents = new FakePaymentIntents()
  const requests: { method: string; path: string }[] = []
  const charges = new Map<string, FakeStripeCharge>()
  // Held in memory only, to tell the card network which card moved; never shown or stored.
  const cards = new Map<string, string>()
  const replies = new Map<string, { body: string; status: number; response: unknown }>()
  let nextFailure: "card_declined" | "expired_card" | "network" | undefined

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const pathname = new URL(req.url ?? "/", "http://fake-stripe").pathname
      requests.push({ method: req.method ?? "GET", path: pathname.replace(/\/(pi|re|ch)_[0-9a-z]+/g, "/:id") })
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { "content-type": "application/json", "request-id": `req_${id()}` })
        res.end(JSON.stringify(payload))
      }
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return send(401, stripeError("invalid_request_error", "Invalid API Key provided"))
      }
      const key = req.headers["idempotency-key"] as string | undefined
      const replay = key ? replies.get(key) : undefined
      if (replay) {
        return replay.body === body
          ? send(replay.status, replay.response)
          : send(
              400,
              stripeError(
                "idempotency_error",
                "Keys for idempotent requests can only be used with the same parameters they were first used with."
              )
            )
      }
      const url = new URL(req.url ?? "/", "http://fake-stripe")
      const params = parseForm(req.method === "GET" ? url.search.slice(1) : body)
      let status = 200
      let response: unknown
      const lifecycle = intents.route(req.method ?? "GET", url.pathname, params)
      if (lifecycle) {
        ;[status, response] = lifecycle
      } else if (req.method === "POST" && url.pathname === "/v1/payment_intents") {
        if (nextFailure === "network") {
          nextFailure = undefined
          req.socket.destroy()
          return
        }
        ;[status, response] = createPaymentIntent(params, key)
      } else if (req.method === "POST" && url.pathname === "/v1/refunds") {
        ;[status, response] = createRefund(params)
      } else {
        ;[status, response] = [
          404,
          stripeError("invalid_request_error", `Unrecognized request URL (${req.method}: ${url.pathname})`),
        ]
      }
      if (key) {
        replies.set(key, { body, status, response })
      }
      send(status, response)
    })
  })

  function createPaymentIntent(params: Params, idempotencyKey?: string): [number, unknown] {
    const unknown = Object.keys(params).find((name) => !PAYMENT_INTENT_PARAMS.has(name))
    if (unknown) return [400, stripeError("invalid_request_error", `Received unknown parameter: ${unknown}`, unknown)]
    const amount = Number(params.amount)
    if (!Number.isInteger(amount) || amount < 50)
      return [
        400,
        stripeError("invalid_request_error", "Amount must be an integer of at least 50 minor units", "amount"),
      ]
    if (typeof params.currency !== "string" || !/^[a-z]{3}$/.test(params.currency))
      return [400, stripeError("invalid_request_error", "Invalid currency", "currency")]
    if (params.confirm !== "true")
      return [400, stripeError("invalid_request_error", "This fake only supports confirm=true", "confirm")]
    const method = params.payment_method_data as Params | undefined
    const card = method?.card as Params | undefined
    if (method?.type !== "card" || !card)
      return [400, stripeError("invalid_request_error", "Missing payment_method_data[card]", "payment_method_data")]
    const number = String(card.number ?? "")
    if (!/^\d{12,19}$/.test(number) || !passesLuhn(number))
      return [402, cardError("incorrect_number", "Your card number is incorrect.")]
    const month = Number(card.exp_month)
    const year = Number(card.exp_year)
    if (!(month >= 1 && month <= 12) || !(year >= 2000))
      return [400, stripeError("invalid_request_error", "Invalid expiry", "payment_method_data[card][exp_month]")]
    const now = new Date()
    if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
      return [402, cardError("expired_card", "Your card has expired.")]
    }
    if (!/^\d{3,4}$/.test(String(card.cvc ?? "")))
      return [402, cardError("incorrect_cvc", "Your card's security code is incorrect.")]
    const billing = method.billing_details as Params | undefined
    if (!billing?.name || !(billing.address as Params | undefined)?.postal_code) {
      return [
        400,
        stripeError(
          "invalid_request_error",
          "The fake requires billing_details[name] and [address]",
          "payment_method_data[billing_details]"
        ),
      ]
    }
    if (nextFailure) {
      const code = nextFailure
      nextFailure = undefined
      return [402, cardError(code, code === "expired_card" ? "Your card has expired." : "Your card was declined.")]
    }
    const charge: FakeStripeCharge = {
      id: `pi_${id()}`,
      amount,
      currency: params.currency,
      last4: number.slice(-4),
      refunded: 0,
      idempotencyKey,
      metadata: (params.metadata as Record<string, string>) ?? {},
    }
    charges.set(charge.id, charge)
    cards.set(charge.id, number)
    options.onCardTransaction?.({ pan: number, kind: "charge", amount: decimal(amount), reference: charge.id })
    return [200, intentView(charge)]
  }

  function createRefund(params: Params): [number, unknown] {
    const charge = charges.get(String(params.payment_intent ?? ""))
    if (!charge) return [404, stripeError("invalid_request_error", "No such payment_intent", "payment_intent")]
    const amount = params.amount === undefined ? charge.amount - charge.refunded : Number(params.amount)
    if (!Number.isInteger(amount) || amount <= 0)
      return [400, stripeError("invalid_request_error", "Invalid amount", "amount")]
    if (amount > charge.amount - charge.refunded) {
      return [
        400,
        stripeError(
          "invalid_request_error",
          `Refund amount (${amount}) is greater than unrefunded amount on charge (${charge.amount - charge.refunded})`,
          "amount"
        ),
      ]
    }
    charge.refunded += amount
    options.onCardTransaction?.({
      pan: cards.get(charge.id)!,
      kind: "refund",
      amount: decimal(amount),
      reference: charge.id,
    })
    return [
      200,
      {
        id: `re_${id()}`,
        object: "refund",
        amount,
        currency: charge.currency,
        payment_intent: charge.id,
        status: "succeeded",
      },
    ]
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    host: "127.0.0.1",
    port,
    secretKey,
    webhookSecret,
    requests: () => requests.map((request) => ({ ...request })),
    confirmPaymentIntent: (id) => intents.confirm(id),
    sendWebhook: (url, type, paymentIntentId) => {
      const intent = intents.get(paymentIntentId)
      if (!intent) throw new Error(`no PaymentIntent ${paymentIntentId}`)
      return sendStripeEvent(url, webhookSecret, type, intent)
    },
    charges: () => [...charges.values()].map((charge) => ({ ...charge })),
    failNextCharge(code) {
      nextFailure = code
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

type Params = { [name: string]: string | Params | undefined }

/** Stripe's form encoding: `a[b][c]=v` nests; `a[0]=v` is a list, kept as an object here. */
function parseForm(body: string): Params {
  const root: Params = {}
  for (const [name, value] of new URLSearchParams(body)) {
    const path = name.replace(/\]/g, "").split("[")
    let node = root
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        node[part] = value
      } else {
        node = (node[part] = (typeof node[part] === "object" ? node[part] : {}) as Params) as Params
      }
    })
  }
  return root
}

function intentView(charge: FakeStripeCharge) {
  return {
    id: charge.id,
    object: "payment_intent",
    amount: charge.amount,
    amount_received: charge.amount,
    currency: charge.currency,
    status: "succeeded",
    metadata: charge.metadata,
    latest_charge: `ch_${charge.id.slice(3)}`,
  }
}

function stripeError(type: string, message: string, param?: string) {
  return { error: { type, message, ...(param ? { param } : {}) } }
}

function cardError(code: string, message: string) {
  return {
    error: {
      type: "card_error",
      code,
      decline_code: code === "card_declined" ? "generic_decline" : undefined,
      message,
    },
  }
}

function decimal(minor: number): string {
  return `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, "0")}`
}

function id() {
  return randomBytes(12).toString("hex")
}
