import fs from "node:fs"
import http from "node:http"
import path from "node:path"
import type { AddressInfo } from "node:net"

/** What the page needs to talk to the store: all of it public, as in any storefront. */
export type CheckoutPageConfig = {
  storeUrl: string
  publishableKey: string
  regionId: string
  shippingOptionId: string
}

/**
 * The demo's stand-in storefront: one static HTML page answered for every path (the shop at /,
 * /checkout where a declined or cancelled shopper comes back, /order/:id/confirmed where an
 * approved one lands), with the store's coordinates written into it. Everything else the page
 * does, it does in the browser against the Store API, as a real storefront would.
 */
export async function startCheckoutPage(
  port: number,
  config: CheckoutPageConfig
): Promise<{ url: string; close(): Promise<void> }> {
  const template = fs.readFileSync(path.join(__dirname, "index.html"), "utf8")
  // `<` escaped so that no value can close the script element.
  const html = template.replace(
    "<script>",
    `<script>window.DEMO_CONFIG = ${JSON.stringify(config).replace(/</g, "\\u003c")}</script>\n<script>`
  )
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET" }).end()
      return
    }
    if (req.url === "/favicon.ico") {
      res.writeHead(204).end()
      return
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
    res.end(req.method === "HEAD" ? undefined : html)
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => resolve())
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
