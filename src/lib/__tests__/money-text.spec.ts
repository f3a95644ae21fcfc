import { moneyText } from "../texts/money-text"

describe("money in the merchant's sentences", () => {
  it("writes the symbol, the thousands grouped and the code, digit by digit", () => {
    expect(moneyText("1044.12", "cad")).toBe("$1,044.12 CAD")
    expect(moneyText("10.00", "CAD")).toBe("$10.00 CAD")
    expect(moneyText("1234567.89", "usd")).toBe("$1,234,567.89 USD")
    expect(moneyText("999.5", "eur")).toBe("€999.5 EUR")
    expect(moneyText("-20.00", "cad")).toBe("-$20.00 CAD")
    // Digits a float would lose are written as given.
    expect(moneyText("90071992547409.93", "cad")).toBe("$90,071,992,547,409.93 CAD")
  })

  it("writes only the code for a currency Intl has no symbol for", () => {
    expect(moneyText("5.00", "xyz")).toBe("5.00 XYZ")
  })
})
