import { escapeHtml } from "./http"

/** The hosted application as a shopper sees it: the purchase, and three buttons. */
export function applicationPage(application: {
  id: string
  shopName: string
  amount: string
  currency: string
  reference: string
  test: boolean
  customer?: string
}): string {
  const e = escapeHtml
  const button = (decision: string, label: string, style: string) => `
      <form method="POST" action="/CheckOut/decision">
        <input type="hidden" name="application_id" value="${e(application.id)}">
        <input type="hidden" name="decision" value="${decision}">
        <button id="${decision}" type="submit" class="${style}">${label}</button>
      </form>`
  return page(
    "PayBright application",
    `
    <p class="shop">${e(application.shopName)}${application.test ? ' <span class="badge">TEST</span>' : ""}</p>
    <h1>Finance your purchase</h1>
    <p class="amount">${e(application.amount)} ${e(application.currency)}</p>
    ${application.customer ? `<p>Applicant: ${e(application.customer)}</p>` : ""}
    <p class="muted">Reference ${e(application.reference)}</p>
    <div class="actions">
      ${button("approve", "Approve", "primary")}
      ${button("decline", "Decline", "secondary")}
      ${button("leave", "Leave and return to the store", "link")}
    </div>
    <p class="muted">This is the PayBright simulator: no credit check, no real money.</p>`
  )
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`)
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f6fb; color: #1d2433; margin: 0; }
  main { max-width: 28rem; margin: 3rem auto; background: #fff; border-radius: 12px; padding: 2rem; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { font-size: 1.4rem; margin: .2rem 0 1rem; }
  .shop { color: #5b6478; margin: 0; } .amount { font-size: 2rem; font-weight: 700; margin: .5rem 0; }
  .badge { background: #ffe8a3; color: #7a5b00; border-radius: 4px; padding: 0 .4rem; font-size: .8rem; }
  .muted { color: #7a8194; font-size: .85rem; } .actions { display: grid; gap: .6rem; margin: 1.5rem 0; }
  .actions form { margin: 0; } button { width: 100%; padding: .8rem; border-radius: 8px; font-size: 1rem; cursor: pointer; border: 1px solid #c9cfdc; background: #fff; }
  button.primary { background: #1b6ef3; color: #fff; border-color: #1b6ef3; } button.link { border: none; color: #1b6ef3; }
</style></head>
<body><main>${body}</main></body></html>`
}
