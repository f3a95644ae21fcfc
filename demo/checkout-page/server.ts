import fs from "node:fs"
import http from "node:http"
import path from "node:path"
import type { AddressInfo } from "node:net"

export type CheckoutPageConfig = { storeUrl: string; publishableKey: string; regionId: string; shippingOptionId: string }

/**
 * The demo's stand-in storefront: one HTML page for every path (shop, /checkout, and
 * /order/:id/confirmed), with the store's coordinates written into it.
 */
export async function startCheckoutPage(port: number, config: () => CheckoutPageConfig): Promise<{ url: string; close(): Promise<void> }> {
  const template = fs.readFileSync(path.join(__dirname, "index.html"), "utf8")
  const server = http.createServer((req, res) => {
    if (req.url === "/favicon.ico") {
      res.writeHead(204).end()
      return
    }
    const html = template.replace("<script>", `<script>window.DEMO_CONFIG = ${JSON.stringify(config()).replace(/</g, "\\u003c")}</script>\n<script>`)
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
    res.end(html)
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
