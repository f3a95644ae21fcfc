import { notStartedMessage } from "../merchant-messages"
import { said } from "../texts/said"
import { openRefusals, parcelCaptureStoppedBeforeStart, STOPPED_BEFORE_START } from "../open-refusals"

type Row = Parameters<typeof openRefusals>[0][number]

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 10, minute))
const row = (over: Partial<Row> & Pick<Row, "id">): Row => ({
  kind: "capture",
  state: "refused",
  retry_of: null,
  payment_id: "pay_1",
  fulfillment_id: null,
  amount: "100.00",
  created_at: at(0),
  ...over,
})

describe("which refusals are still open", () => {
  it("keeps a refused capture open until it is retried or its amount is captured after it", () => {
    const refused = row({ id: "refused" })
    expect(openRefusals([refused]).map((open) => open.id)).toEqual(["refused"])
    expect(
      openRefusals([refused, row({ id: "retry", retry_of: "refused", state: "refused", created_at: at(1) })])
    ).toEqual([expect.objectContaining({ id: "retry" })])
    expect(openRefusals([refused, row({ id: "medusa", state: "done", created_at: at(5) })])).toEqual([])
  })

  it("is not closed by a capture made before it, of another payment, or by a capture for a void", () => {
    const refused = row({ id: "refused", created_at: at(5) })
    expect(openRefusals([refused, row({ id: "earlier", state: "done", created_at: at(1) })])).toEqual([refused])
    expect(
      openRefusals([refused, row({ id: "other", state: "done", payment_id: "pay_2", created_at: at(9) })])
    ).toEqual([refused])
    const refusedVoid = row({ id: "void", kind: "void" })
    expect(openRefusals([refusedVoid, row({ id: "capture", state: "done", created_at: at(9) })])).toEqual([refusedVoid])
  })

  it("is made good by its contract's captures on the payment an order change carried it into", () => {
    const refused = row({ id: "refused", contract: "C1", fulfillment_id: "ful_sofa", created_at: at(1) })
    const carried = { contract: "C1", payment_id: "pay_2", state: "done" as const }
    expect(
      openRefusals([refused, row({ id: "sofa", fulfillment_id: "ful_sofa", created_at: at(3), ...carried })])
    ).toEqual([])
    expect(openRefusals([refused, row({ id: "whole", created_at: at(3), ...carried })])).toEqual([])
    // Another contract's capture on that payment takes nothing of it.
    const other = row({ id: "other", contract: "C2", payment_id: "pay_2", state: "done", created_at: at(3) })
    expect(openRefusals([refused, other])).toEqual([refused])
  })

  it("is made good only by its parcel's capture, captures of no parcel adding up to it, or a fully captured payment", () => {
    const refused = row({ id: "refused", fulfillment_id: "ful_sofa", created_at: at(1) })
    const lamp = row({ id: "lamp", state: "done", fulfillment_id: "ful_lamp", amount: "500.00", created_at: at(2) })
    expect(openRefusals([refused, lamp])).toEqual([refused])
    const sofa = row({ id: "sofa", state: "done", fulfillment_id: "ful_sofa", created_at: at(3) })
    expect(openRefusals([refused, lamp, sofa])).toEqual([])
    const small = row({ id: "small", state: "done", amount: "60.00", created_at: at(4) })
    expect(openRefusals([refused, small])).toEqual([refused])
    expect(
      openRefusals([refused, small, row({ id: "rest", state: "done", amount: "40.00", created_at: at(5) })])
    ).toEqual([])
    // One capture of the merchant's counts toward one refusal, the oldest first.
    const second = row({ id: "second", fulfillment_id: "ful_chair", created_at: at(2) })
    const whole = row({ id: "whole", state: "done", amount: "100.00", created_at: at(6) })
    expect(openRefusals([refused, second, whole])).toEqual([second])
    // A retry's capture took the money of the refusal it retried, not another's.
    const first = row({ id: "first", created_at: at(0) })
    const retry = row({ id: "retry", state: "done", retry_of: "first", created_at: at(7) })
    expect(openRefusals([first, refused, retry])).toEqual([refused])
    expect(openRefusals([refused, lamp], (payment) => payment === "pay_1")).toEqual([])
  })
})

describe("which refused captures the plugin makes again by itself", () => {
  const stopped = notStartedMessage("capture", STOPPED_BEFORE_START)
  const parcel = {
    kind: "capture" as const,
    state: "refused" as const,
    trigger: "shipment" as const,
    fulfillment_id: "ful_1",
    said: stopped,
  }

  it("is a parcel's own capture whose process stopped before it started", () => {
    expect(parcelCaptureStoppedBeforeStart(parcel)).toBe(true)
    expect(parcelCaptureStoppedBeforeStart({ ...parcel, trigger: "fulfillment" })).toBe(true)
  })

  it.each([
    ["a retry, which a person retries", { trigger: "retry" as const }],
    ["a capture a person asked for", { trigger: "admin" as const, fulfillment_id: null }],
    ["a capture refused for another reason", { said: notStartedMessage("capture", "Medusa refused the capture") }],
    ["a capture the lender refused", { said: said("capture_refused") }],
    ["a refund", { kind: "refund" as const }],
    ["a capture in doubt", { state: "in_doubt" as const }],
  ])("is never %s", (_, change) => {
    expect(parcelCaptureStoppedBeforeStart({ ...parcel, ...change })).toBe(false)
  })
})
