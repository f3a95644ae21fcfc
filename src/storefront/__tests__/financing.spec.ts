import { estimatePayBrightFinancing, payBrightFinancingMessage } from "../financing"
import type { PayBrightFinancingTerms, PayBrightLimits } from "../limits"

const terms = (overrides: Partial<PayBrightFinancingTerms> = {}): PayBrightFinancingTerms => ({
  months: 12,
  apr: "12",
  setup_fee: null,
  monthly_fee: null,
  min_amount: null,
  ...overrides,
})

describe("financing estimate (standard amortization, to the cent)", () => {
  it.each([
    // Published loan-table figures.
    ["1000", "12", 12, "88.85"],
    ["20000", "5", 60, "377.42"],
    ["200000", "6.5", 360, "1264.14"],
    ["10000", "6", 60, "193.33"],
    // Worked out independently to 60 significant digits, then rounded half-up.
    ["1499.99", "29.99", 24, "83.86"],
    ["514.99", "19.99", 12, "47.70"],
  ])("%s at %s%% APR over %i months is %s a month", (amount, apr, months, monthly) => {
    expect(estimatePayBrightFinancing(amount, terms({ apr, months })).monthly).toBe(monthly)
  })

  it("divides the price evenly at 0% APR, rounding half-up", () => {
    expect(estimatePayBrightFinancing(2500, terms({ apr: "0" })).monthly).toBe("208.33")
    expect(estimatePayBrightFinancing("100", terms({ apr: "0", months: 3 })).monthly).toBe("33.33")
    // 12.5 cents: half-up gives 13 (a banker's rounding would give 12).
    expect(estimatePayBrightFinancing("0.25", terms({ apr: "0", months: 2 })).monthlyCents).toBe(13n)
  })

  it("finances the setup fee and adds the monthly fee to each payment", () => {
    const estimate = estimatePayBrightFinancing(
      "1000",
      terms({ apr: "9.99", months: 36, setup_fee: "25", monthly_fee: "2.50" })
    )
    expect(estimate.financedCents).toBe(102500n)
    // 1025 at 9.99% over 36 months is 33.0691 → 33.07, plus 2.50.
    expect(estimate.monthly).toBe("35.57")
  })

  it("reads prices as the Store API gives them: numbers, float noise and taxed fractions of a cent", () => {
    expect(estimatePayBrightFinancing(0.1 + 0.2, terms({ apr: "0", months: 1 })).monthly).toBe("0.30")
    expect(estimatePayBrightFinancing("33.8950", terms({ apr: "0", months: 1 })).monthly).toBe("33.90")
    expect(estimatePayBrightFinancing(33.8949, terms({ apr: "0", months: 1 })).monthly).toBe("33.89")
  })

  it("refuses terms it cannot compute", () => {
    expect(() => estimatePayBrightFinancing("100", terms({ months: 0 }))).toThrow(/months/)
    expect(() => estimatePayBrightFinancing("100", terms({ apr: "-1" }))).toThrow(/APR/)
    expect(() => estimatePayBrightFinancing("-5", terms())).toThrow(/not an amount/)
  })
})

describe("financing message", () => {
  const limits: PayBrightLimits = {
    provider_id: "pp_paybright_paybright",
    currencies: ["CAD"],
    min_order_amount: "100.00",
    max_order_amount: "15000.00",
    financing: terms({ min_amount: "200.00" }),
    promotional_widget: null,
  }

  it("says the monthly payment and labels it an estimate, in English and French", () => {
    const english = payBrightFinancingMessage(limits, { total: 1000, currency_code: "cad" }, "en")
    expect(english?.text).toBe("or from $88.85/month with PayBright")
    expect(english?.note).toMatch(/^Estimate: 12 monthly payments at 12% APR, subject to approval\./)
    const french = payBrightFinancingMessage(limits, { total: 1000, currency_code: "cad" }, "fr-CA")
    expect(french?.text).toBe("ou à partir de 88,85\u00a0$/mois avec PayBright")
    expect(french?.note).toMatch(/^Estimation\u00a0: 12 paiements mensuels au TAP de 12\u00a0%/)
  })

  it("names the fees in the estimate", () => {
    const withFees = { ...limits, financing: terms({ setup_fee: "25", monthly_fee: "2.5" }) }
    expect(payBrightFinancingMessage(withFees, { total: 1000, currency_code: "CAD" }, "en")?.note).toContain(
      "12% APR, a $25.00 fee financed, $2.50 a month in fees"
    )
  })

  it("says a product's estimate is before tax and shipping, and a cart's says nothing more", () => {
    const at = (basis: "price" | "total" | undefined, locale: string) =>
      payBrightFinancingMessage(limits, { total: 1000, currency_code: "CAD" }, locale, { basis })?.note
    expect(at("price", "en")).toMatch(/PayBright sets your actual terms\. Before tax and shipping\.$/)
    expect(at("price", "fr")).toMatch(/PayBright fixe vos conditions réelles\. Avant taxes et livraison\.$/)
    expect(at("total", "en")).toBe(at(undefined, "en"))
    expect(at("total", "en")).not.toContain("tax")
  })

  it("writes money with the storefront's own formatter when it is given one", () => {
    const asTheStarter = (amount: number, currencyCode: string) =>
      new Intl.NumberFormat("en-US", { style: "currency", currency: currencyCode }).format(amount)
    const withFees = { ...limits, financing: terms({ setup_fee: "25" }) }
    const message = payBrightFinancingMessage(withFees, { total: 1000, currency_code: "cad" }, "en", {
      formatMoney: asTheStarter,
    })
    expect(message?.text).toBe("or from CA$91.07/month with PayBright")
    expect(message?.note).toContain("a CA$25.00 fee financed")
  })

  it("is never shown outside the limits, below the terms' minimum, in another currency or without terms", () => {
    const shown = (total: number | string, currency = "CAD", of = limits) =>
      payBrightFinancingMessage(of, { total, currency_code: currency }, "en") !== undefined
    expect(shown(200)).toBe(true)
    expect(shown(15000)).toBe(true)
    expect(shown("199.99")).toBe(false)
    expect(shown("15000.01")).toBe(false)
    expect(shown(1000, "USD")).toBe(false)
    expect(shown(1000, "CAD", { ...limits, financing: null })).toBe(false)
    expect(payBrightFinancingMessage(undefined, { total: 1000, currency_code: "CAD" })).toBeUndefined()
  })
})
