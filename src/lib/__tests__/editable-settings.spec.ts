import { optionIssues, optionsSchema, parseOptions } from "../options"
import { amountLimitRefusal } from "../amount-limits"
import { applyOverrides, formFieldOf } from "../editable-settings"

const config = {
  apiKey: "key",
  apiToken: "configured-token",
  backendUrl: "https://api.shop.ca",
  storefrontUrl: "https://shop.ca",
  shopName: "Configured shop",
  cardProcessor: { type: "stripe", options: { secretKey: "sk_test_configured", host: "127.0.0.1", port: 12111 } },
  captureMode: "virtual_card",
}

describe("settings saved in the admin over medusa-config.ts", () => {
  it("overrides what was saved and keeps the rest of the configuration", () => {
    const options = parseOptions(
      applyOverrides(config, {
        overrides: { shopName: "Saved shop", minOrderAmount: "100", currencies: ["cad"] },
        secrets: { apiToken: "saved-token", cardProcessorSecretKey: "sk_test_saved" },
      })
    )
    expect(options).toMatchObject({
      shopName: "Saved shop",
      apiToken: "saved-token",
      apiKey: "key",
      minOrderAmount: "100.00",
      currencies: ["CAD"],
      cardProcessor: { type: "stripe", options: { secretKey: "sk_test_saved", host: "127.0.0.1", port: 12111 } },
    })
  })

  it("keeps stored secrets when none is given, and removes a limit saved as null", () => {
    const options = parseOptions(
      applyOverrides(
        { ...config, maxOrderAmount: 5000 },
        { overrides: { maxOrderAmount: null, cardProcessorType: "manual" }, secrets: {} }
      )
    )
    expect(options.apiToken).toBe("configured-token")
    expect(options.maxOrderAmount).toBeUndefined()
    expect(options.cardProcessor).toEqual({ type: "manual" })
  })

  it("validates with the options schema, each problem on its form field", () => {
    const parsed = optionsSchema.safeParse(
      applyOverrides(config, {
        overrides: { minOrderAmount: "500", maxOrderAmount: "100", cardProcessorType: "none", shopName: " " },
        secrets: {},
      })
    )
    expect(parsed.success).toBe(false)
    const fields = parsed.error!.issues.map((issue) => formFieldOf(issue.path.join(".")))
    expect(fields.sort()).toEqual(["cardProcessorType", "maxOrderAmount", "shopName"])
    expect(formFieldOf("cardProcessor.options.secretKey")).toBe("cardProcessorSecretKey")
  })

  it("says each problem in English and as the facts the admin writes it from", () => {
    const issuesOf = (overrides: Record<string, unknown>, base: Record<string, unknown> = config) => {
      const parsed = optionsSchema.safeParse(applyOverrides(base, { overrides, secrets: {} }))
      return parsed.success ? [] : optionIssues(parsed.error)
    }
    expect(issuesOf({ minOrderAmount: "500", maxOrderAmount: "100", shopName: " " })).toEqual([
      { option: "shopName", message: "must not be empty", code: "empty", values: {} },
      {
        option: "maxOrderAmount",
        message: "must not be less than minOrderAmount (500.00)",
        code: "not_less_than",
        values: { other: "minOrderAmount", value: "500.00" },
      },
    ])
    expect(issuesOf({ maxOrderAmount: "1.234", financingMonths: 12, financingApr: "9,99", currencies: [] })).toEqual([
      {
        option: "currencies",
        message: "must hold at least one currency PayBright finances (CAD)",
        code: "no_currency",
        values: { currencies: "CAD" },
      },
      {
        option: "maxOrderAmount",
        message: "must be an amount with at most two decimals, such as 100.00",
        code: "amount_format",
        values: { example: "100.00" },
      },
      {
        option: "financingApr",
        message: "must be a percentage from 0 to 99.9999, such as 9.99",
        code: "percentage_format",
        values: { max: "99.9999", example: "9.99" },
      },
    ])
    expect(issuesOf({ financingMonths: "twelve", promotionalWidgetKey: "k".repeat(201) })).toEqual([
      expect.objectContaining({ option: "financingMonths", code: "whole_months", values: {} }),
      expect.objectContaining({ option: "promotionalWidgetKey", code: "too_long", values: { max: 200 } }),
    ])
    // The Stripe processor's sentences, and one of zod's own words, have facts too.
    expect(
      issuesOf({ cardProcessorType: "stripe" }, { ...config, cardProcessor: { type: "stripe", options: {} } })
    ).toEqual([expect.objectContaining({ option: "cardProcessor.options.secretKey", code: "required" })])
    expect(issuesOf({}, { ...config, virtualCardGraceMinutes: 2000, timeoutMs: 10 })).toEqual([
      expect.objectContaining({ option: "virtualCardGraceMinutes", code: "at_most", values: { max: 1440 } }),
      expect.objectContaining({ option: "timeoutMs", code: "at_least", values: { min: 1000 } }),
    ])
  })
})

describe("order amount limits", () => {
  it("refuses a cart outside the limits with a sentence the storefront can show", () => {
    const limits = { minOrderAmount: "100.00", maxOrderAmount: "15000.00" }
    expect(amountLimitRefusal(limits, "99.99", "CAD")).toBe(
      "PayBright financing is available for orders from 100.00 to 15000.00 CAD; this order's total is 99.99 CAD. Choose another payment method."
    )
    expect(amountLimitRefusal(limits, "15000.01", "CAD")).toContain("from 100.00 to 15000.00 CAD")
    expect(amountLimitRefusal(limits, "100.00", "CAD")).toBeUndefined()
    expect(amountLimitRefusal(limits, "15000.00", "CAD")).toBeUndefined()
    expect(amountLimitRefusal({ minOrderAmount: "100.00" }, "50.00", "CAD")).toContain("of 100.00 CAD or more")
    expect(amountLimitRefusal({}, "1.00", "CAD")).toBeUndefined()
  })
})
