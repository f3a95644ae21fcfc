import {
  fetchPayBrightLimits,
  isPayBrightOffered,
  payBrightLimitsOf,
  payBrightUnavailableMessage,
  type PayBrightLimits,
} from "../limits"
import http from "node:http"
import type { AddressInfo } from "node:net"

const limits: PayBrightLimits = {
  provider_id: "pp_paybright_paybright",
  currencies: ["CAD"],
  min_order_amount: "100.00",
  max_order_amount: "15000.00",
  financing: null,
  promotional_widget: null,
}

describe("order-amount limits", () => {
  it("offers PayBright for carts within the limits in a currency it is set up for", () => {
    const offered = (total: number | string | null, currency = "cad") =>
      isPayBrightOffered(limits, { total, currency_code: currency })
    expect(offered(100)).toBe(true)
    expect(offered("15000.00")).toBe(true)
    expect(offered(99.99)).toBe(false)
    // A taxed total carries fractions of a cent: 99.995 rounds to 100.00, as the session's amount does.
    expect(offered("99.995")).toBe(true)
    expect(offered("15000.005")).toBe(false)
    expect(offered(500, "usd")).toBe(false)
    expect(offered(null)).toBe(false)
    expect(
      isPayBrightOffered(
        { ...limits, min_order_amount: null, max_order_amount: null },
        { total: 1, currency_code: "CAD" }
      )
    ).toBe(true)
  })

  it("leaves PayBright offered when the limits could not be read: the plugin still refuses a session outside them", () => {
    expect(isPayBrightOffered(undefined, { total: 5, currency_code: "CAD" })).toBe(true)
  })

  it("picks a provider's limits, the README's registration by default", () => {
    const other = { ...limits, provider_id: "pp_paybright_outlet" }
    expect(payBrightLimitsOf([other, limits])).toBe(limits)
    expect(payBrightLimitsOf([other, limits], "pp_paybright_outlet")).toBe(other)
    expect(payBrightLimitsOf(undefined)).toBeUndefined()
  })

  it("fetches the limits over HTTP with the publishable key, and fails naming the route", async () => {
    const seen: (string | undefined)[] = []
    const server = http.createServer((req, res) => {
      seen.push(req.headers["x-publishable-api-key"] as string | undefined)
      if (req.url !== "/store/paybright/limits") return void res.writeHead(404).end()
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ limits: [limits] }))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const backendUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      expect(await fetchPayBrightLimits({ backendUrl: `${backendUrl}/`, publishableKey: "pk_1" })).toEqual([limits])
      expect(seen).toEqual(["pk_1"])
      await expect(fetchPayBrightLimits({ backendUrl: `${backendUrl}/nope`, publishableKey: "pk_1" })).rejects.toThrow(
        "/store/paybright/limits answered 404"
      )
    } finally {
      server.close()
    }
  })
})

describe("why PayBright is not offered", () => {
  const why = (total: number | null, locale = "en", of: PayBrightLimits = limits, currency = "CAD") =>
    payBrightUnavailableMessage(of, { total, currency_code: currency }, locale)

  it("names the order limits with their amounts, in English and French", () => {
    expect(why(20000)).toBe("PayBright financing is available for orders from $100.00 to $15,000.00.")
    expect(why(50, "fr-CA")).toBe(
      "Le financement PayBright est offert pour les commandes de 100,00\u00a0$ à 15\u00a0000,00\u00a0$."
    )
    expect(why(50, "en", { ...limits, max_order_amount: null })).toBe(
      "PayBright financing is available for orders of $100.00 or more."
    )
    expect(why(20000, "fr", { ...limits, min_order_amount: null })).toBe(
      "Le financement PayBright est offert pour les commandes jusqu’à 15\u00a0000,00\u00a0$."
    )
  })

  it("names the currency, and says nothing when PayBright is offered or nothing is known", () => {
    expect(why(500, "en", limits, "USD")).toBe("PayBright financing is not available in this currency.")
    expect(why(500)).toBeUndefined()
    expect(why(null)).toBeUndefined()
    expect(payBrightUnavailableMessage(undefined, { total: 20000, currency_code: "CAD" })).toBeUndefined()
  })

  it("writes the limits with the storefront's own formatter when it is given one", () => {
    const asTheStarter = (amount: number, currencyCode: string) =>
      new Intl.NumberFormat("en-US", { style: "currency", currency: currencyCode }).format(amount)
    expect(
      payBrightUnavailableMessage(limits, { total: 20000, currency_code: "cad" }, "en", { formatMoney: asTheStarter })
    ).toBe("PayBright financing is available for orders from CA$100.00 to CA$15,000.00.")
  })
})
