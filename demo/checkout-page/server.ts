import fs from "node:fs"
import http from "node:http"
import path from "node:path"
import type { AddressInfo } from "node:net"
import { continueOnThisSite, readPayBrightReturn } from "../../src/storefront/return"
import { bundleShop } from "./bundle"

/** What the shop needs to talk to the store: all of it public, as in any storefront. */
export type CheckoutPageConfig = {
  storeUrl: string
  publishableKey: string
  regionId: string
  shippingOptionId: string
}

/** The cart cookie, SameSite=Strict as in Medusa's starters: the return must work with it as it is. */
export const CART_COOKIE = "demo_cart_id"
const LANGUAGE_COOKIE = "demo_lang"
const COUNTRY = "ca"

/**
 * The demo's stand-in storefront, built on the storefront kit the way docs/storefront/dtc-starter.md
 * builds Medusa's starter: the shop and checkout render in the browser (React, the kit's button and
 * financing message), and, as in the starter, the server reads the cart from a `SameSite=Strict`
 * cookie: /ca/checkout without it is "not found". The shopper comes back from PayBright to
 * /ca/paybright/return (the plugin's default), which forgets a completed cart and moves on with a
 * same-site navigation, so the checkout gets its cookie.
 */
export async function startCheckoutPage(
  port: number,
  config: CheckoutPageConfig,
  storeDir: string
): Promise<{ url: string; close(): Promise<void> }> {
  const shell = fs.readFileSync(path.join(__dirname, "index.html"), "utf8")
  const script = await bundleShop(storeDir)
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://localhost:${port}`)
    const cookies = readCookies(req.headers.cookie)
    const language = cookies[LANGUAGE_COOKIE] === "fr" ? "fr" : "en"
    const page = (status: number, view: string, cartId?: string) => {
      const state = { ...config, view, cartId: cartId ?? null, language, country: COUNTRY }
      // `<` escaped so that no value can close the script element.
      const html = shell
        .replace("{{lang}}", language)
        .replace("{{state}}", JSON.stringify(state).replace(/</g, "\\u003c"))
      res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(html)
    }
    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405, { allow: "GET" }).end()
    if (url.pathname === "/shop.js") {
      return void res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(script)
    }
    if (url.pathname === "/favicon.ico") return void res.writeHead(204).end()
    if (url.pathname === "/" || url.pathname === `/${COUNTRY}`) return page(200, "shop")
    if (url.pathname === `/${COUNTRY}/paybright/return`) return void sendResponse(res, payBrightReturn(url, language))
    if (url.pathname === `/${COUNTRY}/checkout`) {
      const cartId = cookies[CART_COOKIE]
      return cartId ? page(200, "checkout", cartId) : page(404, "not-found")
    }
    if (/^\/ca\/order\/order_[0-9A-Za-z]+\/confirmed$/.test(url.pathname)) return page(200, "order")
    page(404, "not-found")
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => resolve())
  })
  return {
    // localhost, not 127.0.0.1: the simulator's pages are on 127.0.0.1, so the lender is another site, as PayBright is.
    url: `http://localhost:${(server.address() as AddressInfo).port}/${COUNTRY}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * /ca/paybright/return, as the guide's route handler: the order placed (its cart is forgotten) or
 * back to checkout with `paybright_status`, through a same-site page.
 */
function payBrightReturn(url: URL, language: string): Response {
  const back = readPayBrightReturn(url)
  if (back.kind === "order") {
    const next = continueOnThisSite(`/${COUNTRY}/order/${back.orderId}/confirmed`, url, language)
    next.headers.append("set-cookie", `${CART_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict`)
    return next
  }
  return continueOnThisSite(`/${COUNTRY}/checkout?step=payment&paybright_status=${back.status}`, url, language)
}

async function sendResponse(res: http.ServerResponse, response: Response) {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => (headers[name] = value))
  const cookies = response.headers.getSetCookie()
  if (cookies.length) headers["set-cookie"] = cookies
  res.writeHead(response.status, headers).end(Buffer.from(await response.arrayBuffer()))
}

function readCookies(header: string | undefined): Record<string, string> {
  return Object.fromEntries(
    (header ?? "")
      .split(";")
      .map((pair) => pair.trim().split("="))
      .filter(([name]) => name)
      .map(([name, ...value]) => [name, decodeURIComponent(value.join("="))])
  )
}
