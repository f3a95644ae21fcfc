import { recordActions } from "../record-actions"

describe("what a merchant can do about a record", () => {
  it("offers a retry only on an open refusal", () => {
    expect(recordActions({ kind: "capture", state: "refused", reference: null }, false)).toEqual(["retry_capture"])
    expect(recordActions({ kind: "capture", state: "refused", reference: null }, true)).toEqual([])
  })
})
