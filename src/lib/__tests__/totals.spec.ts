import { MathBN } from "@medusajs/framework/utils"
import { owedBy, stillCapturable } from "../totals"

describe("what an order still owes", () => {
  it("is Medusa's exact pending difference while the order stands", () => {
    expect(
      owedBy({
        status: "pending",
        total: 402.4387,
        summary: { raw_pending_difference: { value: "402.4387", precision: 20 } },
      })
    ).toEqual({ value: "402.4387", precision: 20 })
    expect(owedBy({ status: "pending", total: 12.5, summary: { pending_difference: 12.5 } })).toBe(12.5)
  })

  it("is nothing once the order is cancelled, whatever its summary still reads", () => {
    const cancelled = { status: "canceled", total: 402.44, summary: { pending_difference: 402.44 } }
    expect(owedBy(cancelled)).toBe(0)
    expect(MathBN.eq(stillCapturable({ amount: 412.44, captured: 10 }, owedBy(cancelled)), 0)).toBe(true)
  })

  it("caps nothing when the order is unknown", () => {
    expect(owedBy(undefined)).toBeUndefined()
    expect(MathBN.eq(stillCapturable({ amount: 412.44, captured: 10 }, owedBy(undefined)), 402.44)).toBe(true)
  })
})
