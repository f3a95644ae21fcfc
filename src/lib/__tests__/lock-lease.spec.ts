import { parseOptions } from "../options"
import PayBrightProviderService from "../../providers/paybright/service"
import {
  completionLeaseSeconds,
  LOCK_TTL_ENV,
  leaseProblem,
  lockTtlSeconds,
  longestCaptureMs,
  longestRefundMs,
  refundLeaseSeconds,
} from "../lock-lease"

const base = {
  apiKey: "key",
  apiToken: "token",
  backendUrl: "https://api.shop.ca",
  storefrontUrl: "https://shop.ca",
}
const stripe = { type: "stripe", options: { secretKey: "sk_test_x" } }

describe("the payment lock's lease outlives the longest capture or refund", () => {
  afterEach(() => {
    delete process.env[LOCK_TTL_ENV]
  })

  it("adds up each call's tries and pauses", () => {
    // In store: one call to the lender, never retried.
    expect(longestCaptureMs(parseOptions(base))).toBe(15_000)
    // Virtual card on Stripe: 3 card reads with 200 + 400 ms between them, then 3 Stripe tries with
    // up to 60 s between them (Retry-After), then the intent's cancellation tried once.
    const card = parseOptions({ ...base, captureMode: "virtual_card", cardProcessor: stripe })
    expect(longestCaptureMs(card)).toBe(3 * 15_000 + 600 + (3 * 20_000 + 2 * 60_000) + 20_000)
    // A refund goes back to each charge in turn.
    expect(longestRefundMs(card, 3)).toBe(3 * (3 * 20_000 + 2 * 60_000))
    expect(refundLeaseSeconds(card, 3)).toBe(540 + 30)
    const manual = parseOptions({ ...base, captureMode: "virtual_card", cardProcessor: { type: "manual" } })
    expect(longestCaptureMs(manual)).toBe(45_600)
    const own = parseOptions({
      ...base,
      captureMode: "virtual_card",
      cardProcessor: { type: "custom", resolve: "./own", options: { longestCallMs: 5_000 } },
    })
    expect(longestCaptureMs(own)).toBe(45_600 + 5_000)
  })

  it("leases a cart's completion as Medusa does, or for as long as the virtual card's read takes, never for a charge", () => {
    // 3 card reads of 15 s with 200 + 400 ms between them, and 30 s for the database: within Medusa's 120 s.
    expect(
      completionLeaseSeconds([parseOptions({ ...base, captureMode: "virtual_card", cardProcessor: stripe })])
    ).toBe(120)
    // 3 reads of 60 s: 180.6 s, and the database.
    expect(completionLeaseSeconds([parseOptions({ ...base, timeoutMs: 60_000 })])).toBe(211)
    expect(completionLeaseSeconds([])).toBe(120)
  })

  it("uses PAYBRIGHT_LOCK_TTL_SECONDS when set, and refuses options whose capture it cannot cover, naming them", () => {
    expect(lockTtlSeconds()).toBe(120)
    process.env[LOCK_TTL_ENV] = "120"
    expect(lockTtlSeconds()).toBe(120)
    expect(leaseProblem(parseOptions(base))).toBeUndefined()
    expect(leaseProblem(parseOptions({ ...base, timeoutMs: 100_000 }))).toMatchObject({ option: "timeoutMs" })
    const card = parseOptions({ ...base, captureMode: "virtual_card", cardProcessor: stripe })
    expect(leaseProblem(card)).toEqual({
      option: "cardProcessor.options.timeoutMs",
      message: expect.stringContaining("up to 276 s"),
      values: { needed: 276, variable: "PAYBRIGHT_LOCK_TTL_SECONDS", configured: 120 },
    })
    expect(() => PayBrightProviderService.validateOptions({ ...base, timeoutMs: 100_000 })).toThrow(
      /`timeoutMs` makes one capture take up to 130 s .*PAYBRIGHT_LOCK_TTL_SECONDS=120/
    )
    delete process.env[LOCK_TTL_ENV]
    expect(leaseProblem(card)).toBeUndefined()
  })
})
