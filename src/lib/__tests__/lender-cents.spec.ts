import { MathBN } from "@medusajs/framework/utils"
import { lenderAmount, lenderMovement, sameCents, toCents } from "../lender-cents"

describe("the rounding rule between Medusa and the lender", () => {
  it("rounds half up to the cent", () => {
    expect(lenderAmount("402.4010")).toBe("402.40")
    expect(lenderAmount("413.5075875")).toBe("413.51")
    expect(lenderAmount("0.005")).toBe("0.01")
    expect(lenderAmount("0.0049999")).toBe("0.00")
    expect(lenderAmount(349.99)).toBe("349.99")
    expect(toCents("1250")).toBe(125000n)
  })

  it("refuses negative and non-finite amounts", () => {
    expect(() => toCents("-1")).toThrow(RangeError)
    expect(() => toCents(Infinity)).toThrow(RangeError)
  })

  it("moves an amount in cents as it is", () => {
    expect(lenderMovement({ amount: "200.00", before: "0", remaining: "413.5075875" })).toEqual({
      expressible: true,
      amount: "200.00",
      whole: false,
    })
  })

  it("moves what remains of the contract for Medusa's exact remainder", () => {
    // GST + QST on 359.65: 413.5075875; the contract was approved for 413.51.
    expect(lenderMovement({ amount: "413.5075875", before: "0", remaining: "413.5075875" })).toEqual({
      expressible: true,
      amount: "413.51",
      whole: true,
    })
    expect(lenderMovement({ amount: "213.5075875", before: "200.00", remaining: "213.5075875" })).toEqual({
      expressible: true,
      amount: "213.51",
      whole: true,
    })
  })

  it("refuses a fractional amount that is not the remainder", () => {
    expect(lenderMovement({ amount: "10.005", before: "0", remaining: "413.5075875" })).toEqual({
      expressible: false,
      amount: "10.005",
    })
  })

  it("keeps the lender's total equal to Medusa's total in cents over any sequence", () => {
    const authorized = MathBN.convert("1000.0049")
    const parcels = ["333.33", "333.33"]
    let captured = MathBN.convert(0)
    let lender = 0n
    for (const parcel of [...parcels, MathBN.sub(authorized, "666.66").toString()]) {
      const moved = lenderMovement({ amount: parcel, before: captured, remaining: MathBN.sub(authorized, captured) })
      if (!moved.expressible) throw new Error("refused")
      lender += toCents(moved.amount)
      captured = MathBN.add(captured, parcel)
    }
    expect(captured.eq(authorized)).toBe(true)
    expect(lender).toBe(toCents(authorized))
    expect(sameCents(captured, "1000.00")).toBe(true)
  })
})

describe("everything that remains, as a JSON number carries it", () => {
  it("is whole when the admin sends the payment's amount back as a number", () => {
    const exact = "402.40100250000000000123"
    expect(lenderMovement({ amount: Number(exact), before: "0", remaining: exact })).toEqual({
      expressible: true,
      amount: "402.40",
      whole: true,
    })
  })

  it("is not whole a thousandth of a cent away", () => {
    expect(lenderMovement({ amount: "402.40101", before: "0", remaining: "402.4010025" }).expressible).toBe(false)
  })
})
