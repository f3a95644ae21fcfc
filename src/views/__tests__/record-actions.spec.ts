import { recordActions } from "../record-actions"

describe("what a merchant can do about a record", () => {
  const refused = { kind: "capture", state: "refused", reference: null, amount: "1044.12" } as const

  it("offers a retry only on an open refusal", () => {
    expect(recordActions(refused, false)).toEqual(["retry_capture"])
    expect(recordActions(refused, true)).toEqual([])
  })

  it("points to Medusa's own Capture payment, and offers no retry, where that button captures the refused money", () => {
    expect(recordActions(refused, false, "1044.12")).toEqual(["capture_in_medusa"])
    expect(recordActions(refused, true, "1044.12")).toEqual([])
  })

  it("keeps the retry of a parcel's part: Medusa's button would capture the whole authorization", () => {
    expect(recordActions({ ...refused, amount: "400.00" }, false, "1044.12")).toEqual(["retry_capture"])
  })
})
