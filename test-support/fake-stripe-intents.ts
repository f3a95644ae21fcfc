import { randomBytes } from "node:crypto"

/**
 * The PaymentIntent lifecycle as Medusa's own Stripe provider (@medusajs/payment-stripe) drives
 * it: created unconfirmed when the shopper picks Stripe, confirmed in the shopper's browser by
 * Stripe.js (here: `confirm`), retrieved to authorize, captured, cancelled, refunded. No card data
 * ever reaches this part: Stripe.js keeps it in the browser.
 */
export type FakeIntent = {
  id: string
  object: "payment_intent"
  amount: number
  amount_capturable: number
  amount_received: number
  currency: string
  status: "requires_payment_method" | "requires_capture" | "succeeded" | "canceled"
  capture_method: "manual" | "automatic"
  metadata: Record<string, string>
  description: string | null
  payment_method: null
  last_payment_error: null
  latest_charge: string | null
  created: number
}

type Params = { [name: string]: string | Params | undefined }
type Reply = [number, unknown]

/** Parameters the provider sends when it creates or updates an intent. */
const CREATE_PARAMS = new Set([
  "amount",
  "currency",
  "metadata",
  "description",
  "capture_method",
  "expand",
  "customer",
  "setup_future_usage",
  "payment_method_types",
  "payment_method_options",
  "automatic_payment_methods",
  "payment_method_configuration",
])

export class FakePaymentIntents {
  private readonly intents = new Map<string, FakeIntent>()

  /**
   * The reply to a request of the lifecycle, or undefined when it is not one: a PaymentIntent
   * created with `confirm=true` (raw card data, as the plugin's virtual card charges) and refunds
   * of those intents stay with the fake's original endpoints.
   */
  route(method: string, pathname: string, params: Params): Reply | undefined {
    if (method === "POST" && pathname === "/v1/payment_intents") {
      return params.confirm === undefined && params.payment_method_data === undefined ? this.create(params) : undefined
    }
    if (method === "POST" && pathname === "/v1/refunds") {
      const intent = this.intents.get(String(params.payment_intent ?? ""))
      return intent ? this.refund(intent, params) : undefined
    }
    const match = /^\/v1\/payment_intents\/([^/]+)(?:\/(capture|cancel))?$/.exec(pathname)
    const intent = match ? this.intents.get(match[1]) : undefined
    // An intent this lifecycle did not create (a charge confirmed at once) is the charge handlers' to answer.
    if (!match || !intent) return undefined
    if (method === "GET" && !match[2]) return [200, intent]
    if (method === "POST" && !match[2]) return this.update(intent, params)
    if (method === "POST" && match[2] === "capture") return this.capture(intent)
    if (method === "POST" && match[2] === "cancel") return this.cancel(intent)
    return undefined
  }

  /** What Stripe.js does in the shopper's browser once the card is accepted. */
  confirm(id: string): FakeIntent {
    const intent = this.intents.get(id)
    if (!intent) throw new Error(`no PaymentIntent ${id}`)
    if (intent.status !== "requires_payment_method") throw new Error(`PaymentIntent ${id} is ${intent.status}`)
    if (intent.capture_method === "manual") {
      Object.assign(intent, { status: "requires_capture", amount_capturable: intent.amount })
    } else {
      Object.assign(intent, { status: "succeeded", amount_received: intent.amount, latest_charge: `ch_${id.slice(3)}` })
    }
    return { ...intent }
  }

  /** Every PaymentIntent as it stands, to put back with `restore`. */
  snapshot(): FakeIntent[] {
    return structuredClone([...this.intents.values()])
  }

  /** Puts back what `snapshot` answered: intents made since are gone. */
  restore(intents: FakeIntent[]): void {
    this.intents.clear()
    for (const intent of structuredClone(intents)) this.intents.set(intent.id, intent)
  }

  get(id: string): FakeIntent | undefined {
    const intent = this.intents.get(id)
    return intent && { ...intent }
  }

  private create(params: Params): Reply {
    const unknown = Object.keys(params).find((name) => !CREATE_PARAMS.has(name))
    if (unknown) return [400, error(`Received unknown parameter: ${unknown}`, unknown)]
    const amount = Number(params.amount)
    if (!Number.isInteger(amount) || amount < 50) return [400, error("Invalid amount", "amount")]
    if (typeof params.currency !== "string" || !/^[a-z]{3}$/.test(params.currency))
      return [400, error("Invalid currency", "currency")]
    const id = `pi_${randomBytes(12).toString("hex")}`
    const intent: FakeIntent = {
      id,
      object: "payment_intent",
      amount,
      amount_capturable: 0,
      amount_received: 0,
      currency: params.currency,
      status: "requires_payment_method",
      capture_method: params.capture_method === "automatic" ? "automatic" : "manual",
      metadata: (params.metadata as Record<string, string>) ?? {},
      description: typeof params.description === "string" ? params.description : null,
      payment_method: null,
      last_payment_error: null,
      latest_charge: null,
      created: Math.floor(Date.now() / 1000),
    }
    this.intents.set(id, intent)
    return [200, intent]
  }

  private update(intent: FakeIntent, params: Params): Reply {
    if (intent.status !== "requires_payment_method") return [400, unexpectedState(intent, "update")]
    const amount = Number(params.amount ?? intent.amount)
    if (!Number.isInteger(amount) || amount < 50) return [400, error("Invalid amount", "amount")]
    intent.amount = amount
    return [200, intent]
  }

  private capture(intent: FakeIntent): Reply {
    if (intent.status !== "requires_capture") return [400, unexpectedState(intent, "capture")]
    Object.assign(intent, {
      status: "succeeded",
      amount_received: intent.amount_capturable,
      amount_capturable: 0,
      latest_charge: `ch_${intent.id.slice(3)}`,
    })
    return [200, intent]
  }

  private cancel(intent: FakeIntent): Reply {
    if (intent.status === "succeeded" || intent.status === "canceled") return [400, unexpectedState(intent, "cancel")]
    Object.assign(intent, { status: "canceled", amount_capturable: 0 })
    return [200, intent]
  }

  private refund(intent: FakeIntent, params: Params): Reply {
    const refundable = intent.amount_received
    const amount = params.amount === undefined ? refundable : Number(params.amount)
    if (intent.status !== "succeeded" || !Number.isInteger(amount) || amount <= 0 || amount > refundable)
      return [400, error("Invalid refund amount", "amount")]
    intent.amount_received -= amount
    return [
      200,
      {
        id: `re_${randomBytes(12).toString("hex")}`,
        object: "refund",
        amount,
        payment_intent: intent.id,
        status: "succeeded",
      },
    ]
  }
}

function error(message: string, param?: string) {
  return { error: { type: "invalid_request_error", message, ...(param ? { param } : {}) } }
}

/** Stripe's answer to an action the intent's status does not allow, with the intent attached. */
function unexpectedState(intent: FakeIntent, action: string) {
  return {
    error: {
      type: "invalid_request_error",
      code: "payment_intent_unexpected_state",
      message: `This PaymentIntent's ${action} could not be performed because it has a status of ${intent.status}.`,
      payment_intent: intent,
    },
  }
}
