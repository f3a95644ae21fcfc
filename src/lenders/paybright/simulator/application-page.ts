import { escapeHtml as e } from "./http"

/** What the application page shows of the purchase. */
export type ApplicationSummary = {
  id: string
  shopName: string
  amount: string
  currency: string
  reference: string
  test: boolean
  customer?: string
}

/**
 * The hosted application as a shopper sees it: the purchase and three buttons. Each button is its
 * own form so that it works without script, and has a stable id (#approve, #decline, #leave) for
 * browser tests.
 */
export function applicationPage(application: ApplicationSummary): string {
  const button = (decision: string, label: string, style: string) => `
      <form method="POST" action="/CheckOut/decision">
        <input type="hidden" name="application_id" value="${e(application.id)}">
        <input type="hidden" name="decision" value="${decision}">
        <button id="${decision}" type="submit" class="${style}">${label}</button>
      </form>`
  return page(
    "PayBright application",
    `
    <p class="shop">${e(application.shopName)}${application.test ? ' <span class="badge">TEST MODE</span>' : ""}</p>
    <h1>Finance your purchase</h1>
    <p class="amount">${e(application.amount)} <span class="currency">${e(application.currency)}</span></p>
    <dl>
      ${application.customer ? `<dt>Applicant</dt><dd>${e(application.customer)}</dd>` : ""}
      <dt>Order reference</dt><dd>${e(application.reference)}</dd>
    </dl>
    <div class="actions">
      ${button("approve", "Approve", "primary")}
      ${button("decline", "Decline", "secondary")}
      ${button("leave", "Leave and return to the store", "link")}
    </div>
    <p class="muted">This is the PayBright simulator: no credit check, no real money.</p>`
  )
}

/** A page with a title and one message, for refusals the shopper's browser lands on. */
export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${e(title)}</h1><p>${e(message)}</p>`)
}

/** A refusal naming each problem on its own line. */
export function problemsPage(title: string, intro: string, problems: string[]): string {
  const items = problems.map((problem) => `<li>${e(problem)}</li>`).join("")
  return page(title, `<h1>${e(title)}</h1><p>${e(intro)}</p><ul class="problems">${items}</ul>`)
}

/** GET /: what the simulator offers and the test credential to configure the provider with. */
export function indexPage(base: string, account: { apiKey: string; apiToken: string }): string {
  const endpoints: [string, string][] = [
    ["POST /CheckOut/ApplicationForm.aspx", "hosted application (the shopper's browser posts the signed form)"],
    ["POST /CheckOut/decision", "the application page's Approve / Decline / Leave buttons"],
    ["GET /api/vcn/pan?merchantApiKey=…&orderNumber=…", "the contract's virtual card (Basic auth)"],
    ["POST /api/v2/instore/{GatewayReference}/capture/", "in-store capture (Basic auth, JSON)"],
    ["POST /api/v2/instore/{GatewayReference}/refund/", "in-store refund (Basic auth, JSON)"],
    [
      "POST /checkout/api2.aspx",
      "order management: void of a contract never captured (signed JSON, no auth header; answers a signed form)",
    ],
    ["GET /_simulator/contracts/{GatewayReference}", "test-only: a contract's ledger"],
    ["GET /_simulator/contracts?reference=…", "test-only: the contract of a merchant reference"],
    ["GET /_simulator/callbacks?kind=application|void", "test-only: callback delivery log"],
    [
      "POST /_simulator/contracts/{GatewayReference}/fail-next",
      "test-only: make the next capture, refund or card call fail",
    ],
    [
      "POST /_simulator/contracts/{GatewayReference}/faults",
      "test-only: arm a fault (slow, reset, 5xx, 429, 401, 400, bad body, missing field, wrong echo; bad signature for a void) for the next N calls",
    ],
    ["GET|POST /_simulator/settings", "test-only: decision mode, callbacks, capture result"],
  ]
  const rows = endpoints.map(([path, what]) => `<tr><td><code>${e(path)}</code></td><td>${e(what)}</td></tr>`).join("")
  return page(
    "PayBright simulator",
    `
    <h1>PayBright simulator</h1>
    <p>A stand-in for the PayBright lender API, for tests and storefront development. Point the provider at it:</p>
    <pre>checkoutUrl: "${e(base)}"
apiUrl:      "${e(base)}"
apiKey:      "${e(account.apiKey)}"
apiToken:    "${e(account.apiToken)}"</pre>
    <p class="muted">The key and token are simulator-only test credentials, published on purpose; they are not PayBright credentials.</p>
    <table>${rows}</table>`,
    "48rem"
  )
}

function page(title: string, body: string, width = "28rem"): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f6fb; color: #1d2433; margin: 0; }
  main { max-width: ${width}; margin: 3rem auto; background: #fff; border-radius: 12px; padding: 2rem; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { font-size: 1.4rem; margin: .2rem 0 1rem; }
  .shop { color: #5b6478; margin: 0; } .amount { font-size: 2rem; font-weight: 700; margin: .5rem 0; }
  .currency { font-size: 1rem; color: #5b6478; font-weight: 400; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .2rem 1rem; color: #3a4256; } dt { color: #7a8194; } dd { margin: 0; }
  .badge { background: #ffe8a3; color: #7a5b00; border-radius: 4px; padding: 0 .4rem; font-size: .75rem; font-weight: 600; }
  .muted { color: #7a8194; font-size: .85rem; } .actions { display: grid; gap: .6rem; margin: 1.5rem 0; }
  .actions form { margin: 0; } button { width: 100%; padding: .8rem; border-radius: 8px; font-size: 1rem; cursor: pointer; border: 1px solid #c9cfdc; background: #fff; }
  button.primary { background: #1b6ef3; color: #fff; border-color: #1b6ef3; } button.link { border: none; color: #1b6ef3; }
  .problems li { color: #a1261b; margin: .2rem 0; }
  pre { background: #f4f6fb; padding: .8rem; border-radius: 8px; overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; font-size: .9rem; } td { border-top: 1px solid #e3e6ee; padding: .4rem; vertical-align: top; }
</style></head>
<body><main>${body}</main></body></html>`
}
