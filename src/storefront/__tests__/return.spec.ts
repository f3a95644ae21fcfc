import type { ApplicationResultOutcome } from "../../lib/lender-result-decision"
import { checkoutUrl, shopperDestination } from "../../lib/storefront-urls"
import { parseOptions } from "../../lib/options"
import { continueOnThisSite, readPayBrightReturn } from "../return"

describe("the shopper's return to the storefront", () => {
  it("reads the order placed, or why the shopper is back at checkout", () => {
    expect(readPayBrightReturn("https://shop.ca/ca/paybright/return?order_id=order_01ABC")).toEqual({
      kind: "order",
      orderId: "order_01ABC",
    })
    expect(readPayBrightReturn("https://shop.ca/ca/paybright/return?paybright_status=declined")).toEqual({
      kind: "checkout",
      status: "declined",
    })
  })

  it("reads anything tampered with as an error that leads back to checkout", () => {
    for (const query of ["", "order_id=../../evil", "order_id=https://evil.test", "paybright_status=approved"]) {
      expect(readPayBrightReturn(`https://shop.ca/ca/paybright/return?${query}`)).toEqual({
        kind: "checkout",
        status: "error",
      })
    }
  })

  it("moves the shopper on with a same-site page, not a redirect, and never off the storefront", async () => {
    const response = continueOnThisSite(
      "/ca/checkout?step=payment&paybright_status=declined",
      "https://shop.ca/ca/paybright/return?paybright_status=declined",
      "fr"
    )
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("no-store")
    const html = await response.text()
    expect(html).toContain(
      '<meta http-equiv="refresh" content="0;url=/ca/checkout?step=payment&amp;paybright_status=declined">'
    )
    expect(html).toContain('<html lang="fr">')
    expect(html).toContain("Retour à la boutique")
    expect(() => continueOnThisSite("//evil.test/x", "https://shop.ca/ca/paybright/return")).toThrow(
      /leaves the storefront/
    )
    expect(() => continueOnThisSite("https://evil.test/", "https://shop.ca/ca/paybright/return")).toThrow(
      /leaves the storefront/
    )
    // Same origin on paper, another site once the browser reads the emitted path.
    for (const path of ["/.//evil.test/x", "/a/..//evil.test/x", "/\\evil.test/x"]) {
      expect(() => continueOnThisSite(path, "https://shop.ca/ca/paybright/return")).toThrow(/leaves the storefront/)
    }
  })
})

describe("the plugin's return, read by the kit", () => {
  const settings = {
    storefrontUrl: "https://shop.ca",
    storefrontPaths: parseOptions({
      apiKey: "key",
      apiToken: "token",
      backendUrl: "https://api.shop.ca",
      storefrontUrl: "https://shop.ca",
    }).storefrontPaths,
    shopCountry: "CA",
  }

  it("sends every outcome to the storefront's return route, which reads it back", () => {
    const placed = shopperDestination(settings, { kind: "placed", orderId: "order_01XYZ", countryCode: "ca" })
    expect(placed).toBe("https://shop.ca/ca/paybright/return?order_id=order_01XYZ")
    expect(readPayBrightReturn(placed)).toEqual({ kind: "order", orderId: "order_01XYZ" })

    const outcomes: [ApplicationResultOutcome, string][] = [
      [{ kind: "declined" }, "declined"],
      [{ kind: "pending" }, "pending"],
      [{ kind: "processing" }, "processing"],
      [{ kind: "orphaned", reason: "cart_changed" }, "expired"],
      [{ kind: "orphaned", reason: "completion_failed" }, "error"],
      [{ kind: "rejected", status: 401, reason: "unsigned" }, "error"],
    ]
    for (const [outcome, status] of outcomes) {
      const url = shopperDestination(settings, outcome)
      expect(url).toBe(`https://shop.ca/ca/paybright/return?paybright_status=${status}`)
      expect(readPayBrightReturn(url)).toEqual({ kind: "checkout", status })
    }
    expect(readPayBrightReturn(checkoutUrl(settings, "cancelled", "ca"))).toEqual({
      kind: "checkout",
      status: "cancelled",
    })
  })
})
