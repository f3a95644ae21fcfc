import { optionsSchema, parseOptions } from "../options"
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
