import { isPayBrightCheckoutStatus, payBrightLanguage, payBrightText, type PayBrightCheckoutStatus } from "./messages"

/** What the plugin sent the shopper back with: the order placed, or why the shopper is back at checkout. */
export type PayBrightReturn = { kind: "order"; orderId: string } | { kind: "checkout"; status: PayBrightCheckoutStatus }

const ORDER_ID = /^order_[0-9A-Za-z]+$/

/**
 * Reads the storefront URL the plugin's return sent the shopper to (`storefrontPaths`): `order_id`
 * once the order is placed, otherwise `paybright_status`. Anything else reads as `error`, so a
 * tampered URL leads back to checkout, never elsewhere.
 */
export function readPayBrightReturn(url: string | URL): PayBrightReturn {
  const query = new URL(url).searchParams
  const orderId = query.get("order_id")
  if (orderId && ORDER_ID.test(orderId)) return { kind: "order", orderId }
  const status = query.get("paybright_status")
  return { kind: "checkout", status: isPayBrightCheckoutStatus(status) ? status : "error" }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

/**
 * A page that moves the shopper on to `path` on this same site (an immediate refresh, with a link
 * for browsers that do not follow it). Why not a redirect: the shopper comes back from the lender
 * through a chain of redirects that began on the lender's site, and browsers leave the store's
 * `SameSite=Strict` cookies (the cart, the customer's login) off every request of that chain.
 * A navigation started by a page of the storefront itself is same-site, so the next page gets them.
 *
 * `path` is resolved against `requestUrl` and must stay on its origin: no one can use the return
 * to send a shopper elsewhere.
 */
export function continueOnThisSite(path: string, requestUrl: string | URL, locale?: string | null): Response {
  const here = new URL(requestUrl)
  const target = new URL(path, here)
  // A path that normalises to "//host/…" would be read by the browser as another site's address.
  if (target.origin !== here.origin || target.pathname.startsWith("//")) {
    throw new RangeError(`${path} leaves the storefront (${here.origin})`)
  }
  const href = escapeHtml(target.pathname + target.search)
  const html = `<!doctype html>
<html lang="${payBrightLanguage(locale)}">
<head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><meta name="robots" content="noindex"><title>${escapeHtml(payBrightText("returning", locale))}</title></head>
<body><p>${escapeHtml(payBrightText("returning", locale))} <a href="${href}">${escapeHtml(payBrightText("returningLink", locale))}</a></p></body>
</html>`
  return new Response(html, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "referrer-policy": "same-origin",
    },
  })
}
