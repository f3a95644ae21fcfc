import { openRefusals, recordActions } from "../record-actions"

type Row = Parameters<typeof openRefusals>[0][number]

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 10, minute))
const row = (over: Partial<Row> & Pick<Row, "id">): Row => ({
  kind: "capture",
  state: "refused",
  retry_of: null,
  payment_id: "pay_1",
  created_at: at(0),
  ...over,
})

describe("which refusals are still open", () => {
  it("keeps a refused capture open until it is retried or a capture of its payment is made after it", () => {
    const refused = row({ id: "refused" })
    expect(openRefusals([refused]).map((open) => open.id)).toEqual(["refused"])
    expect(
      openRefusals([refused, row({ id: "retry", retry_of: "refused", state: "refused", created_at: at(1) })])
    ).toEqual([expect.objectContaining({ id: "retry" })])
    expect(openRefusals([refused, row({ id: "medusa", state: "done", created_at: at(5) })])).toEqual([])
  })

  it("is not closed by a capture made before it, of another payment, or by a capture for a release", () => {
    const refused = row({ id: "refused", created_at: at(5) })
    expect(openRefusals([refused, row({ id: "earlier", state: "done", created_at: at(1) })])).toEqual([refused])
    expect(
      openRefusals([refused, row({ id: "other", state: "done", payment_id: "pay_2", created_at: at(9) })])
    ).toEqual([refused])
    const release = row({ id: "void", kind: "void" })
    expect(openRefusals([release, row({ id: "capture", state: "done", created_at: at(9) })])).toEqual([release])
  })

  it("offers a retry only on an open refusal", () => {
    expect(recordActions({ kind: "capture", state: "refused", reference: null }, false)).toEqual(["retry_capture"])
    expect(recordActions({ kind: "capture", state: "refused", reference: null }, true)).toEqual([])
  })
})
