import { paymentStatus, type StatusFacts } from "../payment-status"

const DAY = 24 * 60 * 60 * 1000
const authorizedAt = new Date("2026-11-01T12:00:00Z")
const facts = (over: Partial<StatusFacts>): StatusFacts => ({
  authorized: "500.00",
  captured: "0",
  refunded: "0",
  cancelled: false,
  records: [],
  authorizedAt,
  authorizationDays: 30,
  expiryWarningDays: 25,
  now: new Date(authorizedAt.getTime() + 2 * DAY),
  ...over,
})

describe("a PayBright payment's status", () => {
  it("says how far capture has gone", () => {
    expect(paymentStatus(facts({})).status).toBe("awaiting_capture")
    expect(paymentStatus(facts({ captured: "141.25" })).status).toBe("partially_captured")
    expect(paymentStatus(facts({ captured: "500" })).status).toBe("captured")
    expect(paymentStatus(facts({ captured: "500", refunded: "500" })).status).toBe("refunded")
    // As Medusa's order page says of the same payment.
    expect(paymentStatus(facts({ captured: "500", refunded: "20" })).status).toBe("partially_refunded")
    expect(paymentStatus(facts({ cancelled: true })).status).toBe("cancelled")
  })

  it("says a payment an order change cancelled is being carried, and when the lender cancels the rest", () => {
    const carrying = paymentStatus(facts({ cancelled: true, carrying: true }))
    expect(carrying.status).toBe("carrying")
    expect(carrying.expires_at).toBe(new Date(authorizedAt.getTime() + 30 * DAY).toISOString())
    expect(paymentStatus(facts({ cancelled: true })).expires_at).toBeNull()
  })

  it("puts what needs a person first", () => {
    const record = (id: string, state: "done" | "refused" | "in_doubt", retry_of: string | null = null) => ({
      id,
      kind: "capture" as const,
      state,
      retry_of,
      fulfillment_id: null,
      amount: "100.00",
      created_at: "2026-11-01T10:00:00.000Z",
    })
    expect(paymentStatus(facts({ records: [record("a", "done"), record("b", "refused")] })).status).toBe(
      "capture_failed"
    )
    expect(paymentStatus(facts({ records: [record("a", "refused"), record("b", "in_doubt")] })).status).toBe("in_doubt")
  })

  it("counts a refused capture that was retried as ended by its retry", () => {
    const records = [
      {
        id: "first",
        kind: "capture" as const,
        state: "refused" as const,
        retry_of: null,
        fulfillment_id: null,
        amount: "100.00",
        created_at: "2026-11-01T10:00:00.000Z",
      },
      {
        id: "again",
        kind: "capture" as const,
        state: "done" as const,
        retry_of: "first",
        fulfillment_id: null,
        amount: "100.00",
        created_at: "2026-11-01T10:05:00.000Z",
      },
    ]
    expect(paymentStatus(facts({ records, captured: "500" })).status).toBe("captured")
  })

  it("counts a refused capture as ended once its amount is captured after it, or nothing remains to capture", () => {
    const refused = {
      id: "first",
      kind: "capture" as const,
      state: "refused" as const,
      retry_of: null,
      fulfillment_id: "ful_sofa",
      amount: "100.00",
      created_at: "2026-11-01T10:00:00.000Z",
    }
    const lamp = { ...refused, id: "lamp", state: "done" as const, fulfillment_id: "ful_lamp", amount: "50.00" }
    const later = { ...lamp, created_at: "2026-11-01T10:05:00.000Z" }
    expect(paymentStatus(facts({ records: [refused, later], captured: "50" })).status).toBe("capture_failed")
    expect(paymentStatus(facts({ records: [refused, later], captured: "500" })).status).toBe("captured")
    const medusa = { ...later, id: "medusa", fulfillment_id: null, amount: "100.00" }
    expect(paymentStatus(facts({ records: [refused, medusa], captured: "100" })).status).toBe("partially_captured")
  })

  it("counts the days left, and says when the authorization is past the warning age", () => {
    const early = paymentStatus(facts({}))
    expect(early).toMatchObject({ expires_in_days: 28, expires_at: "2026-12-01T12:00:00.000Z", expiring: false })
    const late = paymentStatus(facts({ captured: "100", now: new Date(authorizedAt.getTime() + 27.5 * DAY) }))
    expect(late).toMatchObject({ status: "partially_captured", expires_in_days: 3, expiring: true })
    const lapsed = paymentStatus(facts({ now: new Date(authorizedAt.getTime() + 31 * DAY) }))
    expect(lapsed).toMatchObject({ status: "awaiting_capture", expiring: true })
    expect(lapsed.expires_in_days).toBeLessThanOrEqual(0)
    expect(paymentStatus(facts({ captured: "500" })).expires_in_days).toBeNull()
  })
})
