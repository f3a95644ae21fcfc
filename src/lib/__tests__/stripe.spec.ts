import { startFakeStripe, type FakeStripe } from "../../../test-support/fake-stripe"
import { checkStripeKey, StripeCardProcessor } from "../stripe"
import { CardProcessorError, type CardDetails } from "../card-processor-types"

const card: CardDetails = {
  pan: "4242424242424242",
  cvv: "042",
  expiration: `04${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, "0")}`,
  cardholderName: "PAYBRIGHT",
  billingAddress: { address1: "1 Main St", city: "Toronto", state: "ON", postal_code: "M5V 1A1", country: "CAN" },
}

describe("Stripe card processor against a strict fake Stripe", () => {
  let stripe: FakeStripe
  let processor: StripeCardProcessor

  beforeAll(async () => {
    stripe = await startFakeStripe()
    processor = new StripeCardProcessor({
      secretKey: stripe.secretKey,
      host: stripe.host,
      port: stripe.port,
      protocol: "http",
    })
  })
  afterAll(() => stripe.close())

  const charge = (amount: string, idempotencyKey: string, withCard = card) =>
    processor.charge({
      card: withCard,
      amount,
      currency: "CAD",
      idempotencyKey,
      description: "test",
      metadata: { order: "1" },
    })

  it("checks a secret key with a read that charges nothing, and refuses one Stripe does not know as Stripe does", async () => {
    const where = { host: stripe.host, port: stripe.port, protocol: "http" as const }
    const before = stripe.requests().length
    expect(await checkStripeKey({ secretKey: stripe.secretKey, ...where })).toEqual({
      accepted: true,
      message: "Stripe accepted the secret key.",
    })
    const wrong = await checkStripeKey({ secretKey: "sk_test_someone_elses_key", ...where })
    expect(wrong).toEqual({
      accepted: false,
      refusal: "refused",
      message: expect.stringContaining("did not accept this secret key (401)"),
    })
    expect(stripe.requests().slice(before)).toEqual([
      { method: "GET", path: "/v1/balance" },
      { method: "GET", path: "/v1/balance" },
    ])
  })

  it("charges exactly the amount in cents and keeps only the last four digits", async () => {
    const result = await charge("123.45", "key-1")
    expect(result.amount).toBe("123.45")
    const recorded = stripe.charges().find((entry) => entry.id === result.chargeId)!
    expect(recorded).toMatchObject({ amount: 12345, currency: "cad", last4: "4242" })
    expect(JSON.stringify(stripe.charges())).not.toContain(card.pan)
  })

  it("treats a repeated idempotency key as the same charge", async () => {
    const first = await charge("10.00", "key-same")
    const again = await charge("10.00", "key-same")
    expect(again.chargeId).toBe(first.chargeId)
    expect(stripe.charges().filter((entry) => entry.idempotencyKey === "key-same")).toHaveLength(1)
  })

  it("says what happened when the card is declined or expired, without the card number", async () => {
    stripe.failNextCharge("card_declined")
    const declined = await charge("5.00", "key-declined").catch((error) => error)
    expect(declined).toBeInstanceOf(CardProcessorError)
    expect(declined.code).toBe("declined")
    expect(declined.message).not.toContain(card.pan)

    const expired = await charge("5.00", "key-expired", { ...card, expiration: "0120" }).catch((error) => error)
    expect(expired.code).toBe("expired_card")
  })

  it("refunds part of a charge and refuses more than was charged", async () => {
    const { chargeId } = await charge("50.00", "key-refund")
    const refund = await processor.refund({ chargeId, amount: "20.00", currency: "CAD", idempotencyKey: "refund-1" })
    expect(refund.amount).toBe("20.00")
    const tooMuch = await processor
      .refund({ chargeId, amount: "30.01", currency: "CAD", idempotencyKey: "refund-2" })
      .catch((error) => error)
    expect(tooMuch).toBeInstanceOf(CardProcessorError)
    expect(stripe.charges().find((entry) => entry.id === chargeId)!.refunded).toBe(2000)
  })

  it("reports a refund Stripe answers pending as in doubt until Stripe says otherwise", async () => {
    const { chargeId } = await charge("40.00", "key-pending-refund")
    stripe.injectFault({ endpoint: "refund", kind: "processing" })
    const pending = await processor
      .refund({ chargeId, amount: "15.00", currency: "CAD", idempotencyKey: "refund-pending" })
      .catch((error) => error)
    expect(pending).toBeInstanceOf(CardProcessorError)
    expect(pending).toMatchObject({ outcome: "in_doubt" })
    expect(pending.message).toMatch(/still processing the refund/)
  })

  it("reports a charge Stripe never answered as in doubt, without the card number", async () => {
    const unreachable = new StripeCardProcessor({
      secretKey: stripe.secretKey,
      host: "127.0.0.1",
      port: 9,
      protocol: "http",
      timeoutMs: 1000,
    })
    const failure = await unreachable
      .charge({
        card,
        amount: "5.00",
        currency: "CAD",
        idempotencyKey: "key-unreachable",
        description: "test",
        metadata: {},
      })
      .catch((error) => error)
    expect(failure).toBeInstanceOf(CardProcessorError)
    expect(failure).toMatchObject({ code: "network", outcome: "in_doubt" })
    expect(failure.message).toBe("Stripe did not answer the charge")
    expect(failure.message).not.toContain(card.pan)
  })
})
