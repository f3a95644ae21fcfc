import { pickPayBrightPayment } from "../capture-target"

const payment = (id: string, contract: string, canceled = false, provider_id = "pp_paybright_paybright") => ({
  id,
  provider_id,
  canceled_at: canceled ? new Date() : null,
  data: { gateway_reference: contract },
})

describe("pickPayBrightPayment", () => {
  it("takes the live payment on the contract the order was placed on, not an earlier one kept beside it", () => {
    const kept = payment("pay_kept", "51326")
    const own = payment("pay_own", "51327")
    expect(pickPayBrightPayment([kept, own], "51327")).toBe(own)
  })

  it("takes a cancelled payment on the order's contract over a live one on another", () => {
    const kept = payment("pay_kept", "51326")
    const edited = payment("pay_edited", "51327", true)
    expect(pickPayBrightPayment([kept, edited], "51327")).toBe(edited)
  })

  it("prefers the live one on the order's contract when the contract moved to a new payment", () => {
    const before = payment("pay_before", "51327", true)
    const carried = payment("pay_carried", "51327")
    expect(pickPayBrightPayment([before, carried], "51327")).toBe(carried)
  })

  it("without an ordered contract, takes the live one, else the latest; never another provider's", () => {
    const cancelled = payment("pay_1", "51326", true)
    const live = payment("pay_2", "51327")
    const other = payment("pay_3", "", false, "pp_system_default")
    expect(pickPayBrightPayment([cancelled, live, other], undefined)).toBe(live)
    expect(pickPayBrightPayment([cancelled, payment("pay_4", "51328", true), other], undefined)?.id).toBe("pay_4")
    expect(pickPayBrightPayment([other], undefined)).toBeUndefined()
  })
})
