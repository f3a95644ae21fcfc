import { parseOptions } from "../options"
import PayBrightProviderService from "../../providers/paybright/service"

const valid = {
  apiKey: "key",
  apiToken: "s3cret-token",
  backendUrl: "https://api.shop.ca/",
  storefrontUrl: "https://shop.ca",
}

describe("provider options", () => {
  it("fills in the documented defaults and the sandbox hosts", () => {
    const options = parseOptions(valid)
    expect(options).toMatchObject({
      environment: "sandbox",
      apiUrl: "https://sandbox.api.paybright.com",
      checkoutUrl: "https://sandbox.paybright.com",
      backendUrl: "https://api.shop.ca",
      captureMode: "in_store",
      captureOn: "shipment",
      test: true,
      currencies: ["CAD"],
      authorizationDays: 30,
      expiryWarningDays: 25,
      voidOrphans: true,
    })
    expect(parseOptions({ ...valid, environment: "production" })).toMatchObject({
      apiUrl: "https://api.paybright.com",
      test: false,
    })
  })

  it("stops the store at boot with a message naming each wrong option, never its value", () => {
    const attempt = () =>
      PayBrightProviderService.validateOptions({
        ...valid,
        apiToken: "",
        backendUrl: "not a url",
        captureMode: "cheque",
        tokn: "s3cret-token",
      })
    expect(attempt).toThrow(/`apiToken` must not be empty/)
    expect(attempt).toThrow(/`backendUrl` must be the public URL of the Medusa server/)
    expect(attempt).toThrow(/`captureMode` must be "in_store" or "virtual_card"/)
    expect(attempt).toThrow(/unknown option `tokn`/)
    expect(attempt).not.toThrow(/s3cret-token/)
  })

  it("requires a card processor in virtual-card mode", () => {
    expect(() => parseOptions({ ...valid, captureMode: "virtual_card" })).toThrow(/`cardProcessor` is required/)
    expect(
      parseOptions({ ...valid, captureMode: "virtual_card", cardProcessor: { type: "manual" } }).cardProcessor
    ).toEqual({ type: "manual" })
  })

  it("reads releaseOrphans, the earlier name of voidOrphans, when voidOrphans is not set", () => {
    expect(parseOptions({ ...valid, voidOrphans: false }).voidOrphans).toBe(false)
    const earlier = parseOptions({ ...valid, releaseOrphans: false })
    expect(earlier.voidOrphans).toBe(false)
    expect(earlier).not.toHaveProperty("releaseOrphans")
    expect(parseOptions({ ...valid, voidOrphans: true, releaseOrphans: true }).voidOrphans).toBe(true)
    expect(() => parseOptions({ ...valid, voidOrphans: true, releaseOrphans: false })).toThrow(
      /`releaseOrphans` is the earlier name of voidOrphans and says the opposite: set voidOrphans alone/
    )
    // What was parsed parses again the same: the settings in force are read back through the schema.
    expect(parseOptions(earlier)).toEqual(earlier)
  })

  it("warns before the lender cancels an authorization, not after", () => {
    expect(() => parseOptions({ ...valid, expiryWarningDays: 30 })).toThrow(
      /`expiryWarningDays` must be less than authorizationDays \(30\)/
    )
    expect(parseOptions({ ...valid, authorizationDays: 60, expiryWarningDays: 50 })).toMatchObject({
      authorizationDays: 60,
      expiryWarningDays: 50,
    })
  })
})

describe("options that cannot bite", () => {
  const production = { ...valid, environment: "production" }

  it("needs https URLs in production, loopback addresses excepted", () => {
    expect(() => parseOptions({ ...production, storefrontUrl: "http://shop.ca" })).toThrow(
      /`storefrontUrl` must be an https URL in production/
    )
    expect(() => parseOptions({ ...production, apiUrl: "http://api.paybright.test" })).toThrow(
      /`apiUrl` must be an https URL/
    )
    expect(
      parseOptions({ ...production, apiUrl: "http://127.0.0.1:4010", backendUrl: "http://localhost:9000" })
    ).toMatchObject({ apiUrl: "http://127.0.0.1:4010", backendUrl: "http://localhost:9000" })
    expect(parseOptions({ ...valid, storefrontUrl: "http://shop.ca" }).storefrontUrl).toBe("http://shop.ca")
  })

  it("refuses test mode in production", () => {
    expect(() => parseOptions({ ...production, test: true })).toThrow(/`test` must not be true in production/)
    expect(parseOptions(production).test).toBe(false)
  })

  it("accepts only currencies the lender finances, two-decimal ones", () => {
    expect(parseOptions({ ...valid, currencies: ["cad"] }).currencies).toEqual(["CAD"])
    expect(() => parseOptions({ ...valid, currencies: ["JPY"] })).toThrow(
      /`currencies.0` may hold only currencies PayBright finances \(CAD\)/
    )
    expect(() => parseOptions({ ...valid, currencies: ["USD"] })).toThrow(/currencies/)
  })

  it("puts no cart id in storefront paths", () => {
    expect(() => parseOptions({ ...valid, storefrontPaths: { checkout: "/checkout?cart={cart_id}" } })).toThrow(
      /`storefrontPaths.checkout` must not contain \{cart_id\}/
    )
  })

  it("sends shoppers back to the storefront's return route by default", () => {
    expect(parseOptions(valid).storefrontPaths).toEqual({
      orderConfirmed: "/{country_code}/paybright/return?order_id={order_id}",
      checkout: "/{country_code}/paybright/return",
    })
  })

  it("takes the financing estimate's terms together, and the widget's public key", () => {
    const options = parseOptions({
      ...valid,
      financingMonths: 12,
      financingApr: "9.990",
      financingSetupFee: 25,
      financingMinAmount: "200",
      promotionalWidgetKey: " pk_pub ",
    })
    expect(options).toMatchObject({
      financingMonths: 12,
      financingApr: "9.99",
      financingSetupFee: "25.00",
      financingMinAmount: "200.00",
      promotionalWidgetKey: "pk_pub",
    })
    expect(parseOptions(valid).financingMonths).toBeUndefined()
    expect(() => parseOptions({ ...valid, financingMonths: 12 })).toThrow(/`financingApr` is required/)
    expect(() => parseOptions({ ...valid, financingSetupFee: "10" })).toThrow(/`financingMonths` is required/)
    expect(() => parseOptions({ ...valid, financingMonths: 12.5, financingApr: 0 })).toThrow(
      /`financingMonths` must be a whole number of months/
    )
    expect(() => parseOptions({ ...valid, financingMonths: 12, financingApr: "150" })).toThrow(
      /`financingApr` must be a percentage/
    )
  })

  it("gives the virtual card ten minutes by default", () => {
    expect(parseOptions(valid).virtualCardGraceMinutes).toBe(10)
    expect(() => parseOptions({ ...valid, virtualCardGraceMinutes: -1 })).toThrow(/virtualCardGraceMinutes/)
  })
})
