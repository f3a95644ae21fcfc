import http from "node:http"
import { randomBytes } from "node:crypto"
import type { AddressInfo } from "node:net"
import { FAULT_ACTS, faultAnswer, type FaultKind } from "../src/lenders/paybright/simulator/faults"
import { passesLuhn } from "../src/lenders/paybright/simulator/luhn"
import { FakePaymentIntents, type FakeIntent } from "./fake-stripe-intents"
import { sendStripeEvent } from "./stripe-webhook"

/**
 * A small stand-in for the Stripe API, for tests and the demo: PaymentIntents confirmed with raw
 * card data, refunds, and the balance (a key's check). It is strict about what it receives (unknown parameters, bad cards and
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

/** What the fake holds: its charges, the cards behind them, its PaymentIntents and its idempotent replies. */
export type FakeStripeBooks = {
  charges: [string, FakeStripeCharge][]
  cards: [string, string][]
  intents: FakeIntent[]
  replies: [string, { body: string; status: number; response: unknown }][]
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
  /**
   * Arms a fault of the matrix (see src/lenders/paybright/simulator/faults.ts) for the next `count` charge or refund
   * requests, or leaves the next charge's intent "processing" or "requires_action" (a refund: "pending").
   */
  injectFault(fault: {
    endpoint: "charge" | "refund"
    kind: StripeFaultKind
    count?: number
    delayMs?: number
    /** Requests to let through before the fault starts. */
    after?: number
  }): void
  /** Every armed fault that answered a request so far, oldest first. */
  faultsFired(): { endpoint: "charge" | "refund"; kind: StripeFaultKind }[]
  /** Disarms every fault not fired yet. */
  clearFaults(): void
  /** What it holds now, to put back with `restoreBooks` (held in memory only, as the cards are). */
  books(): FakeStripeBooks
  /** Puts back what `books` answered: charges, intents and replies made since are gone, and every fault is disarmed. */
  restoreBooks(books: FakeStripeBooks): void
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

export type StripeFaultKind = FaultKind | "processing" | "requires_action"

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
  const faults = new Map<string, { kind: StripeFaultKind; count: number; delayMs?: number; after: number }>()
  const fired: { endpoint: "charge" | "refund"; kind: StripeFaultKind }[] = []
  const takeFault = (endpoint: string) => {
    const fault = faults.get(endpoint)
    if (!fault) return undefined
    if (fault.after > 0) {
      faults.set(endpoint, { ...fault, after: fault.after - 1 })
      return undefined
    }
    if (fault.count <= 1) faults.delete(endpoint)
    else faults.set(endpoint, { ...fault, count: fault.count - 1 })
    fired.push({ endpoint: endpoint as "charge" | "refund", kind: fault.kind })
    return fault
  }

  const server = http.createServer((req, res) => {
    const endpoint =
      req.url?.startsWith("/v1/payment_intents") && !req.url.includes("/cancel")
        ? "charge"
        : req.url?.startsWith("/v1/refunds")
          ? "refund"
          : ""
    if (faults.get(endpoint)?.kind === "reset_before_read" && !faults.get(endpoint)?.after) {
      takeFault(endpoint)
      req.socket.destroy()
      return
    }
    const fault = takeFault(endpoint)
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const pathname = new URL(req.url ?? "/", "http://fake-stripe").pathname
      requests.push({ method: req.method ?? "GET", path: pathname.replace(/\/(pi|re|ch)_[0-9a-z]+/g, "/:id") })
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { "content-type": "application/json", "request-id": `req_${id()}` })
        res.end(JSON.stringify(payload))
      }
      // A fault after Stripe acted replaces the answer; one before it answers instead of acting.
      const send = (status: number, payload: unknown) => {
        if (!fault || fault.kind === "processing" || fault.kind === "requires_action") return reply(status, payload)
        if (fault.kind === "reset_after_read") return req.socket.destroy()
        if (fault.kind === "slow") {
          setTimeout(() => res.destroyed || reply(status, payload), fault.delayMs ?? 30_000)
          return
        }
        if (fault.kind === "missing_field") {
          const { status: _dropped, ...rest } = payload as Record<string, unknown>
          return reply(status, rest)
        }
        if (fault.kind === "echo_mismatch") {
          const body = payload as Record<string, unknown>
          return reply(status, {
            ...body,
            amount: Number(body.amount) + 100,
            amount_received: Number(body.amount) + 100,
          })
        }
        // Errors Stripe itself would send come in Stripe's shape; a gateway's page or a broken body as they are.
        const stripeShaped = STRIPE_FAULT_ERRORS[fault.kind]
        if (stripeShaped) {
          res.writeHead(stripeShaped.status, { "content-type": "application/json", ...stripeShaped.headers })
          return res.end(JSON.stringify({ error: stripeShaped.error }))
        }
        const answer = faultAnswer(fault.kind)!
        res.writeHead(answer.status, { "content-type": answer.type, ...answer.headers })
        res.end(answer.body)
      }
      if (fault && fault.kind !== "processing" && fault.kind !== "requires_action" && !FAULT_ACTS[fault.kind]) {
        return send(0, undefined)
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
        const held = fault?.kind === "requires_action" ? "requires_action" : undefined
        ;[status, response] = createPaymentIntent(params, key, held)
        if (status === 200 && fault?.kind === "processing") {
          response = { ...(response as Record<string, unknown>), status: "processing" }
        }
      } else if (req.method === "POST" && /^\/v1\/payment_intents\/[^/]+\/cancel$/.test(url.pathname)) {
        const charge = charges.get(url.pathname.split("/")[3])
        ;[status, response] = charge
          ? [200, { ...intentView(charge), status: "canceled" }]
          : [404, stripeError("invalid_request_error", "No such payment_intent")]
        if (charge) charges.delete(charge.id)
      } else if (req.method === "POST" && url.pathname === "/v1/refunds") {
        ;[status, response] = createRefund(params)
        // Stripe has taken the refund but not finished it: the money is on its way back.
        if (status === 200 && fault?.kind === "processing") {
          response = { ...(response as Record<string, unknown>), status: "pending" }
        }
      } else if (req.method === "GET" && url.pathname === "/v1/balance") {
        // What a secret key is checked with before it is stored: it reads, and changes, nothing.
        ;[status, response] = [
          200,
          { object: "balance", livemode: false, available: [{ amount: 0, currency: "cad" }], pending: [] },
        ]
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

  function createPaymentIntent(params: Params, idempotencyKey?: string, held?: "requires_action"): [number, unknown] {
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
    if (!held) {
      try {
        options.onCardTransaction?.({ pan: number, kind: "charge", amount: decimal(amount), reference: charge.id })
      } catch {
        // The issuer refused it (the lender cancelled the card with a voided contract, or too much): a decline.
        return [402, cardError("card_declined", "Your card was declined.")]
      }
    }
    charges.set(charge.id, charge)
    cards.set(charge.id, number)
    if (held) {
      // Waiting for the cardholder: nothing is charged, and the card network hears nothing.
      return [200, { ...intentView(charge), status: held, amount_received: 0 }]
    }
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
    injectFault(fault) {
      faults.set(fault.endpoint, {
        kind: fault.kind,
        count: fault.count ?? 1,
        delayMs: fault.delayMs,
        after: fault.after ?? 0,
      })
    },
    faultsFired: () => fired.map((fault) => ({ ...fault })),
    clearFaults: () => faults.clear(),
    books: () =>
      structuredClone({
        charges: [...charges],
        cards: [...cards],
        intents: intents.snapshot(),
        replies: [...replies],
      }),
    restoreBooks(books) {
      const kept = structuredClone(books)
      refill(charges, kept.charges)
      refill(cards, kept.cards)
      refill(replies, kept.replies)
      intents.restore(kept.intents)
      faults.clear()
      nextFailure = undefined
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function refill<K, V>(map: Map<K, V>, entries: [K, V][]) {
  map.clear()
  for (const [key, value] of entries) map.set(key, value)
}

const STRIPE_FAULT_ERRORS: Partial<
  Record<StripeFaultKind, { status: number; error: Record<string, string>; headers?: Record<string, string> }>
> = {
  status_500: { status: 500, error: { type: "api_error", message: "An unknown error occurred" } },
  status_503: { status: 503, error: { type: "api_error", message: "Service unavailable" } },
  rate_limited: {
    status: 429,
    error: { type: "invalid_request_error", code: "rate_limit", message: "Too many requests" },
    headers: { "retry-after": "1" },
  },
  unauthorized: { status: 401, error: { type: "invalid_request_error", message: "Invalid API Key provided" } },
  bad_request: { status: 400, error: { type: "invalid_request_error", message: "The request is invalid." } },
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
