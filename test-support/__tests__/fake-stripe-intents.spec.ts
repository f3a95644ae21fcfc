import { createRequire } from "node:module"
import { startFakeStripe, type FakeStripe } from "../fake-stripe"
import { stripeSignature } from "../stripe-webhook"

// The Stripe SDK of Medusa's own Stripe provider, the client the bench points at the fake.
const Stripe = createRequire(require.resolve("@medusajs/payment-stripe"))("stripe")

describe("fake Stripe: the PaymentIntent lifecycle Medusa's Stripe provider drives", () => {
  let fake: FakeStripe
  let stripe: any

  beforeAll(async () => {
    fake = await startFakeStripe()
    stripe = new Stripe(fake.secretKey, { host: fake.host, port: fake.port, protocol: "http", maxNetworkRetries: 0 })
  })
  afterAll(() => fake.close())

  it("creates an unconfirmed intent, confirms it as Stripe.js would, retrieves, captures and refunds it", async () => {
    // What the provider's initiatePayment sends, under the session's idempotency key.
    const create = () =>
      stripe.paymentIntents.create(
        {
          amount: 10450,
          currency: "cad",
          metadata: { session_id: "payses_1" },
          capture_method: "manual",
          expand: ["payment_method"],
        },
        { idempotencyKey: "idem-1" }
      )
    const created = await create()
    expect(created).toMatchObject({
      status: "requires_payment_method",
      amount: 10450,
      metadata: { session_id: "payses_1" },
    })
    const replay = await create()
    expect(replay.id).toBe(created.id)

    fake.confirmPaymentIntent(created.id)
    const retrieved = await stripe.paymentIntents.retrieve(created.id, { expand: ["payment_method"] })
    expect(retrieved).toMatchObject({ status: "requires_capture", amount_capturable: 10450 })

    const captured = await stripe.paymentIntents.capture(created.id)
    expect(captured).toMatchObject({ status: "succeeded", amount_received: 10450, amount_capturable: 0 })
    await expect(stripe.paymentIntents.capture(created.id)).rejects.toMatchObject({
      code: "payment_intent_unexpected_state",
    })
    const refund = await stripe.refunds.create({ payment_intent: created.id, amount: 450 })
    expect(refund).toMatchObject({ amount: 450, status: "succeeded" })
    await expect(stripe.paymentIntents.retrieve("pi_unknown")).rejects.toMatchObject({ statusCode: 404 })

    // The charges made with raw card data (the plugin's virtual card) are a separate book.
    expect(fake.charges()).toEqual([])
    expect(fake.requests().map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/payment_intents",
      "POST /v1/payment_intents",
      "GET /v1/payment_intents/:id",
      "POST /v1/payment_intents/:id/capture",
      "POST /v1/payment_intents/:id/capture",
      "POST /v1/refunds",
      "GET /v1/payment_intents/:id",
    ])
  })

  it("cancels an intent not yet captured", async () => {
    const intent = await stripe.paymentIntents.create({ amount: 5000, currency: "cad", capture_method: "manual" })
    expect(await stripe.paymentIntents.cancel(intent.id)).toMatchObject({ status: "canceled" })
  })

  it("sends webhooks with a signature Stripe's SDK accepts, and one with the wrong secret fails", async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 7000,
      currency: "cad",
      metadata: { session_id: "payses_2" },
      capture_method: "manual",
    })
    fake.confirmPaymentIntent(intent.id)
    let received: { body: string; signature: string } | undefined
    const http = await import("node:http")
    const server = http.createServer((req, res) => {
      let body = ""
      req.on("data", (chunk) => (body += chunk))
      req.on("end", () => {
        received = { body, signature: String(req.headers["stripe-signature"]) }
        res.end("ok")
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as { port: number }
    const status = await fake.sendWebhook(
      `http://127.0.0.1:${port}/hooks/payment/stripe_stripe`,
      "payment_intent.amount_capturable_updated",
      intent.id
    )
    server.close()
    expect(status).toBe(200)
    const event = stripe.webhooks.constructEvent(received!.body, received!.signature, fake.webhookSecret)
    expect(event).toMatchObject({
      type: "payment_intent.amount_capturable_updated",
      data: { object: { id: intent.id, amount_capturable: 7000, metadata: { session_id: "payses_2" } } },
    })
    expect(() => stripe.webhooks.constructEvent(received!.body, received!.signature, "whsec_other")).toThrow()
    expect(stripeSignature("{}", "whsec_x", 1700000000)).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/)
  })
})
