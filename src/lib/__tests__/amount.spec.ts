import { formatAmount, normalizeAmount, parseAmount } from "../texts/amount"

describe("lender amounts", () => {
  it("reads the forms the lender writes and always writes two decimals", () => {
    expect(parseAmount("400")).toBe(40000n)
    expect(parseAmount("89.9")).toBe(8990n)
    expect(parseAmount("1100.00")).toBe(110000n)
    expect(formatAmount(8999n)).toBe("89.99")
    expect(formatAmount(5n)).toBe("0.05")
    expect(normalizeAmount("400")).toBe("400.00")
  })

  it("refuses anything that is not a plain amount with at most two decimals", () => {
    for (const bad of ["", "1.234", "-5", "1e3", "12,00", "abc"]) {
      expect(() => parseAmount(bad)).toThrow(/not an amount/)
    }
  })
})
