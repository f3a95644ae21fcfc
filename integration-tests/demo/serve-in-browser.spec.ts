import fs from "node:fs"
import path from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { launchChromium } from "../../test-support/browser"
import { freePort } from "../../test-support/free-port"
import { ADMIN_LOGIN } from "../../demo/store"
import { demoAdminApi } from "../helpers/demo-admin"
import { DemoRun, suitePostgres } from "./run-demo"
import { estimatePayBrightFinancing } from "../../src/storefront/financing"
import type { PayBrightFinancingTerms } from "../../src/storefront/limits"

jest.setTimeout(300_000)

const ARTIFACTS = path.resolve(__dirname, "../../test-artifacts")
/** The financing terms the demo's medusa-config.ts gives the storefront. */
const DEMO_TERMS: PayBrightFinancingTerms = {
  months: 12,
  apr: "9.99",
  setup_fee: null,
  monthly_fee: null,
  min_amount: "100.00",
}

/** What the lender answered in this file's tests: the lender's own words, not the plugin's. */
const LENDER_WORDS = [
  "Contract on hold at PayBright",
  "Contract locked at PayBright",
  "Contract under review at PayBright",
]
/** Words no French sentence has, and the English words the plugin must not leave in its French. */
const ENGLISH =
  /\b(the|and|was|were|is|not|of|to|for|at|in|by|with|this|that|from|has|have|been|be|its|then|when|will|still|already|nothing|before|after|retry|made|approved|verified|contract|order|payment|refund|shipment|loan|portal|resolve|captured|refunded|voided|awaiting)\b/gi
const NEVER_IN_FRENCH = /\b(worker|sandbox|lender)\b/i

/** The lines of a French page that read as English: two English words or more, once the lender's own words are left out. */
function englishIn(text: string): string[] {
  return text
    .split("\n")
    .map((line) => LENDER_WORDS.reduce((rest, words) => rest.split(words).join(""), line))
    .filter(
      (line) =>
        NEVER_IN_FRENCH.test(line) || new Set((line.match(ENGLISH) ?? []).map((word) => word.toLowerCase())).size >= 2
    )
}

/**
 * Moves an admin tab to `url` as the admin's own links do: its router draws the page, without
 * loading the admin again (in development mode, a load is hundreds of module requests). The
 * entry pushed is the router's own kind, so the browser's Back returns through it.
 */
async function visit(page: Page, url: string) {
  const { pathname, search } = new URL(url)
  await page.evaluate((to) => {
    const state = window.history.state as { idx?: number } | null
    window.history.pushState(
      { usr: null, key: Math.random().toString(36).slice(2, 10), idx: (state?.idx ?? 0) + 1 },
      "",
      to
    )
    window.dispatchEvent(new PopStateEvent("popstate", { state: window.history.state }))
  }, `${pathname}${search}`)
  await page.waitForURL((current) => current.pathname === pathname)
}

/**
 * `npm run demo -- --serve` in a real headless Chromium, one demo for the whole file: a person
 * buying on the demo's checkout page, then the merchant's side, the Medusa admin with the plugin
 * installed from its package (its order panel, needs-attention list and settings). Each side has
 * a browser context of its own, so the shopper's cookies never touch the merchant's login.
 */
describe("npm run demo -- --serve, in a browser", () => {
  let demo: DemoRun
  let browser: Browser
  let shopUrl: string
  let adminUrl: string
  let settingsUrl: string
  let simulatorUrl: string

  beforeAll(async () => {
    demo = new DemoRun(["--serve", "--port", String(await freePort())], suitePostgres())
    shopUrl = (await demo.waitFor(/Shop with PayBright:\s+(\S+)/))[1]
    adminUrl = (await demo.waitFor(/Medusa admin:\s+(\S+)/))[1]
    settingsUrl = (await demo.waitFor(/PayBright settings:\s+(\S+)/))[1]
    simulatorUrl = (await demo.waitFor(/PayBright simulator:\s+(\S+)/))[1]
    browser = await launchChromium()
    fs.mkdirSync(ARTIFACTS, { recursive: true })
  })

  afterAll(async () => {
    await browser?.close()
    const code = await demo?.interrupt()
    expect(demo.output).toContain("Stopping")
    expect(code).toBe(130)
  })

  describe("the shopper, on the demo's checkout page", () => {
    // The packaged Chromium runs as a single process, which ends when its last context closes.
    let context: BrowserContext
    let placedOrderId: string

    beforeAll(async () => {
      context = await browser.newContext()
    })

    it("buys with PayBright through the storefront kit, approves on the lender's page, lands on the order, then starts a new cart", async () => {
      const page = await context.newPage()
      await page.goto(shopUrl)
      // The estimate shows for the products within its terms (from 100.00), labelled an estimate: the
      // sofa, the treadmill and the bookshelf; never for the 64.50 lamp.
      const financing = page.getByTestId("paybright-financing")
      await financing.first().waitFor()
      expect(await financing.count()).toBe(3)
      // On a product, the estimate is on its price, and says so; written as the shop writes its prices.
      expect(await financing.first().textContent()).toMatch(
        /^or from \$\d+\.\d\d\/month with PayBright.*Estimate: 12 monthly payments at 9\.99% APR.*Before tax and shipping\.$/
      )
      await page.screenshot({ path: path.join(ARTIFACTS, "demo-shop.png"), fullPage: true })
      const productEstimate = /\$([\d.,]+)\/month/.exec((await financing.first().textContent())!)?.[1]

      await page.locator("button.buy").first().click()
      await page.waitForURL(/\/ca\/checkout\?step=payment$/)
      expect(await page.textContent("#redirect-notice")).toContain("You will be sent to PayBright")
      // At checkout, on what PayBright finances: the cart's total, tax and shipping included.
      await financing.first().waitFor()
      const cartTotal = (await page.textContent("#cart-total"))!.replace(/[$,\s]/g, "")
      const onTotal = estimatePayBrightFinancing(cartTotal, DEMO_TERMS).monthly
      expect(onTotal).not.toBe(productEstimate)
      expect(await financing.first().textContent()).toMatch(
        new RegExp(`^or from \\$${onTotal.replace(/\B(?=(\d{3})+\.)/g, ",").replace(".", "\\.")}/month with PayBright`)
      )
      expect(await financing.first().textContent()).not.toContain("Before tax and shipping")
      const firstCart = await cartCookie()
      await page.getByTestId("paybright-button").click()
      await page.waitForSelector("#approve")
      expect(await page.textContent("body")).toContain("Finance your purchase")
      await page.click("#approve")
      await page.waitForSelector("#confirmation", { timeout: 30_000 })
      const orderId = await page.textContent("#order-id")
      expect(orderId).toMatch(/^order_/)
      placedOrderId = orderId!
      expect(page.url()).toContain(`/ca/order/${orderId}/confirmed`)
      expect(await page.textContent("#order-total")).toMatch(/\$/)
      expect(await page.textContent("#order-payment")).toBe("PayBright financing")
      await page.screenshot({ path: path.join(ARTIFACTS, "demo-order-confirmed.png"), fullPage: true })

      // The return forgot the completed cart: the next purchase starts a new one, and its checkout works.
      expect(await cartCookie()).toBeUndefined()
      await page.click("#continue-shopping")
      await page.locator("button.buy").nth(1).click()
      await page.waitForSelector("#cart")
      expect(await cartCookie()).not.toBe(firstCart)
      expect(await page.locator("#cart li").count()).toBe(1)
      await page.close()
    })

    it("shows the merchant the order awaiting capture, then the capture made at shipment, in the Medusa admin", async () => {
      const { get, call } = await adminApi()
      const { order } = await get(`/admin/orders/${placedOrderId}?fields=display_id,*items`)

      const page = await context.newPage()
      await page.setViewportSize({ width: 1400, height: 1000 })
      await page.goto(`${adminUrl}/login`, { timeout: 120_000 })
      await page.fill('input[name="email"]', "admin@paybright.demo", { timeout: 120_000 })
      await page.fill('input[name="password"]', "paybright-demo")
      await page.click('button[type="submit"]')
      await page.waitForURL((url) => !url.pathname.endsWith("/login"), { timeout: 60_000 })

      // Before shipping: the order list shows the authorization awaiting capture and its expiry.
      await visit(page, `${adminUrl}/orders`)
      const awaiting = page.locator("#paybright-needs-attention")
      await awaiting.getByText(`Order #${order.display_id}`).waitFor({ state: "visible", timeout: 60_000 })
      expect(await awaiting.textContent()).toMatch(/expires .+\((29|30) days left\)/)
      // The order list below it loads on its own; the picture shows both.
      await page
        .locator("table")
        .getByText(`#${order.display_id}`)
        .first()
        .waitFor({ state: "visible", timeout: 60_000 })
      await awaiting.waitFor({ state: "visible" })
      await page.screenshot({
        path: path.join(ARTIFACTS, "admin-orders-paybright-awaiting-capture.png"),
        fullPage: true,
      })

      const items = order.items.map((item: { id: string; quantity: number }) => ({
        id: item.id,
        quantity: item.quantity,
      }))
      const locations = await get("/admin/stock-locations")
      const fulfilled = await call(`/admin/orders/${placedOrderId}/fulfillments?fields=fulfillments.id`, {
        items,
        location_id: locations.stock_locations[0].id,
      })
      await call(`/admin/orders/${placedOrderId}/fulfillments/${fulfilled.order.fulfillments[0].id}/shipments`, {
        items,
      })
      // The capture follows the shipment event; the page shows what is recorded when it loads.
      for (let i = 0; i < 100; i++) {
        const { captures } = await get(`/admin/paybright/orders/${placedOrderId}/captures`)
        if (captures.some((capture: { state: string }) => capture.state === "done")) break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }

      await visit(page, `${adminUrl}/orders/${placedOrderId}`)
      const widget = page.locator("#paybright-order-panel")
      await widget
        .locator("#paybright-status", { hasText: /^Captured$/ })
        .waitFor({ state: "visible", timeout: 60_000 })
      expect(await widget.locator("#paybright-records").textContent()).toMatch(/Capture \$[\d,]+\.\d\d at shipment/)
      await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-paybright-captures.png"), fullPage: true })
      await page.close()
    })

    it("sends a declined shopper back to the payment step with the reason, the cart still there (its cookie is SameSite=Strict)", async () => {
      const page = await context.newPage()
      await page.goto(shopUrl)
      await page.locator("button.buy").nth(1).click()
      await page.getByTestId("paybright-button").click()
      await page.click("#decline")
      await page.waitForSelector("#notice")
      // PayBright is the demo's only way to pay: the sentence does not send the shopper to another.
      expect(await page.textContent("#notice")).toBe(
        "PayBright did not approve the application, and this store has no other way to pay for this cart. Please contact the store."
      )
      await page.waitForSelector("#cart")
      // Said once: the address no longer carries it, so coming back to this step does not say it again.
      expect(page.url()).toMatch(/\/ca\/checkout\?step=payment$/)
      await page.screenshot({ path: path.join(ARTIFACTS, "demo-declined.png"), fullPage: true })
      await page.reload()
      await page.waitForSelector("#cart")
      expect(await page.locator("#notice").count()).toBe(0)
      await page.close()
    })

    it("tells a shopper who left the application, in French, that nothing was charged", async () => {
      const page = await context.newPage()
      await page.goto(shopUrl)
      await page.click("#lang-fr")
      await page.getByText("Acheter").first().waitFor()
      await page.locator("button.buy").nth(1).click()
      await page.getByTestId("paybright-button").click()
      await page.click("#leave")
      await page.waitForSelector("#notice")
      expect(await page.textContent("#notice")).toBe(
        "Vous avez quitté la demande PayBright. Rien n’a été facturé. Continuez avec PayBright quand vous serez prêt."
      )
      expect(page.url()).not.toContain("paybright_status")
      await page.waitForSelector("#cart")
      await page.screenshot({ path: path.join(ARTIFACTS, "demo-cancelled-fr.png"), fullPage: true })
      await context.clearCookies()
      await page.close()
    })

    it("shows PayBright's promotional widget at checkout instead of the estimate once the merchant saves its public key", async () => {
      await (
        await adminApi()
      ).call("/admin/paybright/settings/pp_paybright_paybright", {
        promotionalWidgetKey: "pk_demo_widget",
      })

      const page = await context.newPage()
      await page.goto(shopUrl)
      // The product list keeps the estimate (PayBright's widget is one per page); the checkout asks for the widget.
      await page.locator("button.buy").first().click()
      // Saved settings reach the Store API within seconds: reload until the checkout shows the widget.
      for (let attempt = 0; attempt < 20; attempt++) {
        await page.waitForSelector("#cart")
        if ((await page.getByTestId("paybright-widget").count()) > 0) break
        await page.waitForTimeout(500)
        await page.reload()
      }
      const widget = page.locator('[data-testid="paybright-widget"][data-simulator-widget="ready"]')
      await widget.waitFor()
      const total = (await page.textContent("#cart-total"))!.replace(/[$,\s]/g, "")
      expect(await widget.textContent()).toBe(`PayBright widget (simulator): finance ${total} $ · pk_demo_widget`)
      expect(await page.getByTestId("paybright-financing").count()).toBe(0)
      await page.screenshot({ path: path.join(ARTIFACTS, "demo-checkout-widget.png"), fullPage: true })
      await page.goto(shopUrl)
      await page.getByTestId("paybright-financing").first().waitFor()
      expect(await page.getByTestId("paybright-widget").count()).toBe(0)
      await page.close()
      // The merchant's settings page, tested next, starts from the demo's own configuration.
      await (await adminApi()).call("/admin/paybright/settings/pp_paybright_paybright", { promotionalWidgetKey: null })
    })

    /** The Medusa admin API, logged in as the demo's admin. */
    const adminApi = () => demoAdminApi(new URL(adminUrl).origin)

    async function cartCookie() {
      return (await context.cookies()).find((cookie) => cookie.name === "demo_cart_id")?.value
    }
  })

  describe("the merchant, in the Medusa admin", () => {
    let context: BrowserContext
    let admin: Awaited<ReturnType<typeof demoAdminApi>>["request"]
    /** The merchant's tab, open from the login on, as a person keeps the admin open. */
    let tab: Page

    beforeAll(async () => {
      admin = (await demoAdminApi(new URL(adminUrl).origin)).request
      // Money follows the browser's locale in Medusa's admin, as in the panel: English (US) here.
      context = await browser.newContext({ viewport: { width: 1400, height: 1100 }, locale: "en-US" })
      tab = await context.newPage()
      await tab.goto(`${adminUrl}/login`, { timeout: 120_000 })
      await tab.fill('input[name="email"]', ADMIN_LOGIN.email, { timeout: 120_000 })
      await tab.fill('input[name="password"]', ADMIN_LOGIN.password)
      await tab.click('button[type="submit"]')
      await tab.waitForURL((url) => !url.pathname.endsWith("/login"), { timeout: 60_000 })
    })

    /** A shopper buys the first product (or the first `products`) on the demo's checkout page and is approved. */
    async function placeOrder(
      products = 1
    ): Promise<{ id: string; display_id: number; total: string; contract: string }> {
      // A cart of its own: one a test left (at PayBright, or above the limits) is not this order's.
      await context.clearCookies({ name: "demo_cart_id" })
      const page = await context.newPage()
      for (let product = 0; product < products; product++) {
        await page.goto(shopUrl)
        await page.locator("button.buy").nth(product).click()
        await page.waitForURL(/\/ca\/checkout\?step=payment$/)
      }
      await page.getByTestId("paybright-button").click({ timeout: 60_000 })
      await page.click("#approve", { timeout: 60_000 })
      await page.waitForSelector("#confirmation", { timeout: 30_000 })
      const id = (await page.textContent("#order-id"))!
      await page.close()
      const { order } = await admin(
        "GET",
        `/admin/orders/${id}?fields=display_id,total,*items,*payment_collections.payments`
      )
      return {
        id,
        display_id: order.display_id,
        total: Number(order.total).toFixed(2),
        contract: order.payment_collections[0].payments[0].data.gateway_reference,
      }
    }

    /**
     * The order's page and its PayBright panel: in the merchant's tab, or, with `newTab`, in a tab
     * loaded for it (the admin reads its language when it loads: after the language cookie changes).
     */
    async function openPanel(
      orderId: string,
      { newTab = false } = {}
    ): Promise<{ page: Page; panel: ReturnType<Page["locator"]> }> {
      const page = newTab ? await context.newPage() : tab
      if (newTab) await page.goto(`${adminUrl}/orders/${orderId}`, { timeout: 120_000 })
      else await visit(page, `${adminUrl}/orders/${orderId}`)
      // This order's: while the router moves from another order, that one's panel is still drawn.
      const panel = page.locator(`#paybright-order-panel[data-order-id="${orderId}"]`)
      await panel.locator("#paybright-status").waitFor({ state: "visible", timeout: 120_000 })
      return { page, panel }
    }

    /** An amount as Medusa's admin writes money in this browser's locale: "$1,044.12". */
    const written = (amount: string) =>
      new Intl.NumberFormat("en-US", { style: "currency", currency: "CAD", currencyDisplay: "narrowSymbol" }).format(
        Number(amount)
      )

    /** Captures part of the order's payment through Medusa's admin API, as another admin would. */
    async function captureThroughApi(orderId: string, amount: number) {
      const { order: detail } = await admin("GET", `/admin/orders/${orderId}?fields=*payment_collections.payments`)
      await admin("POST", `/admin/payments/${detail.payment_collections[0].payments[0].id}/capture`, { amount })
    }

    async function confirm(page: Page, button: RegExp) {
      await page.getByRole("alertdialog").getByRole("button", { name: button }).click()
    }

    /**
     * The words of the needs-attention list's badges that do not fit their pill: a pill is one line
     * high, so words wrapped onto a second line spill out of it.
     */
    async function badgesOverflowing(attention: ReturnType<Page["locator"]>) {
      return attention.locator("[data-kind] > :last-child").evaluateAll((badges) =>
        badges
          // A pixel of rounding aside.
          .filter((badge) => badge.scrollHeight > badge.clientHeight + 1 || badge.scrollWidth > badge.clientWidth + 1)
          .map((badge) => badge.textContent)
      )
    }

    it("shows an order paid with PayBright, points to Medusa's capture, captures the remainder in Medusa's words", async () => {
      const order = await placeOrder()
      const { page, panel } = await openPanel(order.id)
      expect(await panel.locator("#paybright-status").textContent()).toBe("Awaiting capture")
      const amounts = panel.locator("#paybright-amounts")
      expect(await amounts.textContent()).toContain(`Authorized${written(order.total)}`)
      expect(await amounts.textContent()).toContain(`Remaining${written(order.total)}`)
      expect(await panel.textContent()).toContain(`Contract${order.contract}`)
      expect(await panel.locator("#paybright-timeline").textContent()).toContain(
        `Approval verified: contract ${order.contract}`
      )
      // Nothing captured yet: one way to capture, Medusa's own button, which the panel names.
      expect(await panel.locator("#paybright-capture-hint").textContent()).toBe(
        `To capture all ${written(order.total)} now, use “Capture payment” under Payments; otherwise PayBright captures each parcel as it ships.`
      )
      expect(await panel.getByRole("button").count()).toBe(0)
      await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-awaiting-capture.png"), fullPage: true })

      // Part captured (another admin, the API): Medusa's button would ask for the whole amount, so
      // the panel offers the rest, with Medusa's words and prompt.
      await captureThroughApi(order.id, 100)
      await page.reload()
      await panel.locator("#paybright-status", { hasText: /^Partially captured$/ }).waitFor({ timeout: 60_000 })
      const rest = (Number(order.total) - 100).toFixed(2)
      expect(await panel.locator("#paybright-capture-hint").textContent()).toContain(
        `capture the remaining ${written(rest)} here`
      )
      // One "Capture payment" on the page, Medusa's: the panel's names what it captures.
      expect(await page.getByRole("button", { name: "Capture payment" }).count()).toBe(1)
      await panel.getByRole("button", { name: `Capture the remaining ${written(rest)}` }).click()
      const dialog = page.getByRole("alertdialog")
      expect(await dialog.textContent()).toContain(`Payment of ${written(rest)} will be captured.`)
      await confirm(page, /^Confirm$/)
      await panel.locator("#paybright-status", { hasText: /^Captured$/ }).waitFor({ timeout: 60_000 })
      expect(await amounts.textContent()).toContain(`Captured${written(order.total)}`)
      expect(await amounts.textContent()).toContain("Remaining$0.00")
      expect(await panel.locator("#paybright-records").textContent()).toContain(
        `Capture ${written(rest)} from the admin`
      )
      expect(await panel.locator("#paybright-timeline").textContent()).toContain(
        `Captured ${written(rest)} on PayBright contract ${order.contract}.`
      )
      // The lender captured the same amount.
      const ledger = await (await fetch(`${simulatorUrl}/_simulator/contracts/${order.contract}`)).json()
      expect(ledger.captured).toBe(order.total)
      await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-captured.png"), fullPage: true })
      // The panel alone, once the confirmation's toast is gone: the README's picture (docs/admin-order-panel.png).
      await page.getByText(`PayBright captured ${written(rest)}.`).waitFor({ state: "hidden", timeout: 30_000 })
      await panel.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel.png") })
    })

    /**
     * A fulfillment of the whole order (or of its first `only` items), not shipped yet (the admin's
     * "Fulfill items"), and its items.
     */
    async function fulfil(
      orderId: string,
      only?: number
    ): Promise<{ id: string; items: { id: string; quantity: number }[] }> {
      const { order: detail } = await admin("GET", `/admin/orders/${orderId}?fields=*items`)
      const items = detail.items
        .slice(0, only ?? detail.items.length)
        .map((item: { id: string; quantity: number }) => ({ id: item.id, quantity: item.quantity }))
      const { stock_locations } = await admin("GET", "/admin/stock-locations")
      const fulfilled = await admin("POST", `/admin/orders/${orderId}/fulfillments?fields=fulfillments.id`, {
        items,
        location_id: stock_locations[0].id,
      })
      return { id: fulfilled.order.fulfillments[0].id, items }
    }

    /** Ships the order's first item as a parcel whose capture the lender refuses with `reason`; answers that capture. */
    async function shipRefusedParcel(order: { id: string; contract: string }, reason: string) {
      const failure = await fetch(`${simulatorUrl}/_simulator/contracts/${order.contract}/fail-next`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ operation: "capture", status: 400, message: reason }),
      })
      expect(failure.status).toBe(200)
      const parcel = await fulfil(order.id, 1)
      await admin("POST", `/admin/orders/${order.id}/fulfillments/${parcel.id}/shipments`, { items: parcel.items })
      for (let i = 0; i < 100; i++) {
        const { captures } = await admin("GET", `/admin/paybright/orders/${order.id}/captures`)
        const refused = captures.find((capture: { state: string }) => capture.state === "refused")
        if (refused) return refused as { amount: string }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new Error(`the capture of order ${order.id}'s parcel was not refused within 10 s`)
    }

    it("follows Medusa's own Mark as shipped, Capture payment and Cancel on the open page, without a reload", async () => {
      // Mark as shipped: PayBright captures the parcel a moment later; the panel, and Medusa's own
      // payment card, show it on the page that stayed open.
      const shipped = await placeOrder()
      await fulfil(shipped.id)
      const first = await openPanel(shipped.id)
      expect(await first.panel.locator("#paybright-status").textContent()).toBe("Awaiting capture")
      await first.page.getByRole("button", { name: "Mark as shipped" }).click()
      await first.page.getByRole("button", { name: "Save" }).click()
      await first.page.getByRole("button", { name: "Save" }).waitFor({ state: "hidden", timeout: 60_000 })
      await first.page.screenshot({ path: path.join(ARTIFACTS, "admin-order-marked-shipped.png"), fullPage: true })
      await first.panel.locator("#paybright-status", { hasText: /^Captured$/ }).waitFor({ timeout: 60_000 })
      expect(await first.panel.locator("#paybright-records").textContent()).toContain(
        `Capture ${written(shipped.total)} at shipment`
      )
      await first.page.getByRole("button", { name: "Capture payment" }).waitFor({ state: "hidden", timeout: 30_000 })

      // Medusa's own "Capture payment" on its payment card.
      const captured = await placeOrder()
      const second = await openPanel(captured.id)
      await second.page.getByRole("button", { name: "Capture payment" }).click()
      await confirm(second.page, /^Confirm$/)
      await second.panel.locator("#paybright-status", { hasText: /^Captured$/ }).waitFor({ timeout: 60_000 })
      expect(await second.panel.locator("#paybright-amounts").textContent()).toContain("Remaining$0.00")

      // Medusa's own "Cancel" in the order's menu: the contract is voided, and the panel says so.
      const cancelled = await placeOrder()
      const third = await openPanel(cancelled.id)
      await third.page
        .locator(".shadow-elevation-card-rest", {
          has: third.page.getByRole("heading", { name: `#${cancelled.display_id}`, exact: true }),
        })
        .first()
        .getByRole("button")
        .last()
        .click()
      await third.page.getByRole("menuitem", { name: "Cancel" }).click()
      await confirm(third.page, /^Continue$/)
      await third.panel
        .locator("#paybright-status", { hasText: /^Canceled · loan voided$/ })
        .waitFor({ timeout: 60_000 })
    })

    it("says what changed instead of acting when the page is older than the order", async () => {
      const order = await placeOrder()
      await captureThroughApi(order.id, 100)
      const { page, panel } = await openPanel(order.id)
      expect(await panel.locator("#paybright-status").textContent()).toBe("Partially captured")
      // The rest captured elsewhere (another admin, the API) while this page still offers it.
      const rest = (Number(order.total) - 100).toFixed(2)
      await captureThroughApi(order.id, Number(rest))
      await panel.getByRole("button", { name: `Capture the remaining ${written(rest)}` }).click()
      await page
        .getByText(`The order changed since this page was drawn (Captured, ${written(order.total)} captured)`)
        .waitFor({ timeout: 30_000 })
      expect(await page.getByRole("alertdialog").count()).toBe(0)
      await panel.locator("#paybright-status", { hasText: /^Captured$/ }).waitFor({ timeout: 30_000 })
      const ledger = await (await fetch(`${simulatorUrl}/_simulator/contracts/${order.contract}`)).json()
      expect(ledger.captured).toBe(order.total)
    })

    it("lists a parcel's refused capture under needs attention, and retries that parcel's amount from the list", async () => {
      // Two products, one parcel shipped: its capture is part of the authorization, which Medusa's
      // own "Capture payment" would take whole, so the retry of the parcel's amount is the way.
      const order = await placeOrder(2)
      const refused = await shipRefusedParcel(order, "Contract on hold at PayBright")
      const share = refused.amount
      expect(Number(share)).toBeLessThan(Number(order.total))

      const list = tab
      await visit(list, `${adminUrl}/orders`)
      const attention = list.locator("#paybright-needs-attention")
      const entry = attention.locator('[data-kind="refused_capture"]', { hasText: `Order #${order.display_id}` })
      await entry.waitFor({ state: "visible", timeout: 120_000 })
      expect(await entry.textContent()).toContain("capture refused")
      expect(await entry.textContent()).toContain("Contract on hold at PayBright")
      expect(await badgesOverflowing(attention)).toEqual([])
      await list
        .locator("table")
        .getByText(`#${order.display_id}`)
        .first()
        .waitFor({ state: "visible", timeout: 60_000 })
      await list.screenshot({
        path: path.join(ARTIFACTS, "admin-orders-paybright-needs-attention.png"),
        fullPage: true,
      })
      // The row opens its order, as a row of Medusa's order table does.
      await entry.click({ position: { x: 8, y: 8 } })
      await list.waitForURL(new RegExp(`/orders/${order.id}$`))
      const opened = list.locator(`#paybright-order-panel[data-order-id="${order.id}"]`)
      await opened.locator("#paybright-status", { hasText: /^Capture failed$/ }).waitFor({ timeout: 120_000 })
      expect(await opened.locator("#paybright-records").textContent()).toContain("Contract on hold at PayBright")
      // On the order too, the parcel's retry, not Medusa's whole capture.
      await opened.getByRole("button", { name: `Retry capture of ${written(share)}` }).waitFor()
      expect(await opened.locator("[data-paybright-hint]").count()).toBe(0)
      await list.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-capture-refused.png"), fullPage: true })

      // Back on the list, the retry is right there.
      await list.goBack()
      await entry.waitFor({ state: "visible", timeout: 120_000 })
      await entry.getByRole("button", { name: `Retry capture of ${written(share)}` }).click()
      expect(await list.getByRole("alertdialog").textContent()).toContain(
        `PayBright will be asked again to capture ${written(share)}`
      )
      await confirm(list, /^Capture /)
      await list.getByText(`PayBright captured ${written(share)}.`).waitFor({ timeout: 60_000 })
      await entry.waitFor({ state: "hidden", timeout: 60_000 })

      const { page, panel } = await openPanel(order.id)
      await panel.locator("#paybright-status", { hasText: /^Partially captured$/ }).waitFor({ timeout: 60_000 })
      expect(await panel.locator("#paybright-records").textContent()).toContain(`Capture ${written(share)} at shipment`)
      expect(await panel.locator("#paybright-amounts").textContent()).toContain(`Captured${written(share)}`)
      await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-retried.png"), fullPage: true })
    })

    it("shows an order cancelled while PayBright refused the void as a live loan, and voids it from the panel", async () => {
      const order = await placeOrder()
      const fault = await fetch(`${simulatorUrl}/_simulator/contracts/${order.contract}/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ operation: "void", kind: "bad_request", message: "Contract locked at PayBright" }),
      })
      expect(fault.status).toBe(200)
      // The admin's "Cancel order" calls this route.
      await admin("POST", `/admin/orders/${order.id}/cancel`)

      const { page, panel } = await openPanel(order.id)
      expect(await panel.locator("#paybright-status").textContent()).toBe("Loan not voided")
      const records = panel.locator("#paybright-records")
      expect(await records.textContent()).toContain(`Void ${written(order.total)} when the order was canceled`)
      expect(await records.textContent()).toContain("Contract locked at PayBright")
      await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-loan-not-voided.png"), fullPage: true })
      await panel.getByRole("button", { name: "Retry the void" }).click()
      expect(await page.getByRole("alertdialog").textContent()).toContain(
        `PayBright will be asked again to void contract ${order.contract}`
      )
      await confirm(page, /^Void the contract$/)
      await panel.locator("#paybright-status", { hasText: /^Canceled · loan voided$/ }).waitFor({ timeout: 60_000 })
      expect(await panel.locator("#paybright-timeline").textContent()).toContain(
        `Voided PayBright contract ${order.contract}`
      )
      const ledger = await (await fetch(`${simulatorUrl}/_simulator/contracts/${order.contract}`)).json()
      expect(ledger.status).toBe("VOIDED")
      await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-loan-voided.png"), fullPage: true })
    })

    it("keeps the shop name and limits saved on the settings page, token masked, and the next checkout uses them without a restart", async () => {
      const page = tab
      await visit(page, settingsUrl)
      const form = page.locator("#paybright-settings-form")
      await form.waitFor({ state: "visible", timeout: 120_000 })
      expect(await page.inputValue("#shopName")).toBe("PayBright Demo Furniture")
      expect(await page.textContent("#paybright-settings-new-payments")).toContain("They apply to new payments")
      expect(await page.inputValue("#apiToken")).toBe("")
      expect(await page.getAttribute("#apiToken", "placeholder")).toMatch(/^•+ from your store's configuration/)
      // Each choice says what it does, in the merchant's words.
      expect(await page.textContent("#paybright-settings-form")).toContain("How PayBright pays you:")
      // The storefront's financing terms, as the demo's medusa-config.ts sets them.
      expect(await page.inputValue("#financingMonths")).toBe("12")
      expect(await page.inputValue("#financingApr")).toBe("9.99")
      expect(await page.inputValue("#promotionalWidgetKey")).toBe("")

      // The shopper's side above saved settings through the API: this save makes one version more.
      const saved = /\(change (\d+)\)/.exec((await page.textContent("#paybright-settings-version")) ?? "")
      const nextVersion = Number(saved?.[1] ?? 0) + 1

      // A wrong value is named beside its field, and nothing is saved.
      await page.fill("#shopName", "Maison Dupont Demo")
      await page.fill("#minOrderAmount", "100")
      await page.fill("#maxOrderAmount", "50")
      await page.click("#paybright-settings-save")
      await page.locator("#maxOrderAmount-error").waitFor({ state: "visible", timeout: 60_000 })
      // In the form's words: the field's label, never the option's code name.
      expect(await page.textContent("#paybright-settings-problem")).toBe("Not saved: correct the fields marked below.")
      expect(await page.textContent("#maxOrderAmount-error")).toContain(
        "Maximum order total must not be less than Minimum order total"
      )
      expect(await page.textContent("#paybright-settings-form")).not.toMatch(/OrderAmount/)
      await page.screenshot({ path: path.join(ARTIFACTS, "admin-settings-invalid.png"), fullPage: true })

      await page.fill("#maxOrderAmount", "5000")
      await page.click("#paybright-settings-save")
      await page.getByText("PayBright settings saved").waitFor({ state: "visible", timeout: 60_000 })
      await page.reload()
      await form.waitFor({ state: "visible", timeout: 120_000 })
      await page
        .locator("#paybright-settings-version", { hasText: `(change ${nextVersion})` })
        .waitFor({ timeout: 60_000 })
      expect(await page.inputValue("#shopName")).toBe("Maison Dupont Demo")
      // Shown back as English writes amounts.
      expect(await page.inputValue("#minOrderAmount")).toBe("100.00")
      expect(await page.inputValue("#maxOrderAmount")).toBe("5,000.00")
      expect(await page.inputValue("#apiToken")).toBe("")
      expect(await page.getAttribute("#apiToken", "placeholder")).toMatch(/^•+/)
      expect(await page.textContent("#paybright-settings-version")).toContain(`by ${ADMIN_LOGIN.email}`)
      expect(await page.content()).not.toContain("sim_test_token")
      await page.screenshot({ path: path.join(ARTIFACTS, "admin-settings-saved.png"), fullPage: true })

      // The next checkout, on the same running store: the lender's page shows the new name it was signed with.
      const shop = await context.newPage()
      await shop.goto(shopUrl)
      await shop.locator("button.buy").first().click()
      await shop.getByTestId("paybright-button").click({ timeout: 60_000 })
      await shop.waitForSelector("#approve", { timeout: 60_000 })
      expect(await shop.textContent(".shop")).toContain("Maison Dupont Demo")
      await shop.screenshot({ path: path.join(ARTIFACTS, "simulator-application-new-shop-name.png"), fullPage: true })
      await shop.close()

      // Above the new maximum (four treadmills), PayBright, the demo's only way to pay, is left out of
      // the payment step: the shopper reads why, with the limits written as the shop writes money.
      // A new cart: the one above went to PayBright and was left there.
      await context.clearCookies({ name: "demo_cart_id" })
      const large = await context.newPage()
      for (let treadmill = 0; treadmill < 4; treadmill++) {
        await large.goto(shopUrl)
        await large.locator(".product", { hasText: "$1,249.99" }).locator("button.buy").click()
        await large.waitForURL(/\/ca\/checkout\?step=payment$/)
      }
      const notOffered = large.locator("#not-offered")
      await notOffered.waitFor({ timeout: 60_000 })
      expect(await notOffered.textContent()).toBe(
        "PayBright financing is available for orders from $100.00 to $5,000.00."
      )
      expect(await large.getByTestId("paybright-button").count()).toBe(0)
      await large.screenshot({ path: path.join(ARTIFACTS, "demo-outside-limits.png"), fullPage: true })
      await large.click("#lang-fr")
      await large.locator("#not-offered", { hasText: "Le financement" }).waitFor({ timeout: 60_000 })
      expect((await notOffered.textContent())!.replace(/\s/g, " ")).toBe(
        "Le financement PayBright est offert pour les commandes de 100,00 $ à 5 000,00 $."
      )
      await large.close()
    })

    it("follows a capture PayBright refused on Medusa's own button at once, in French, and offers one way to capture it", async () => {
      const order = await placeOrder()
      const reason = "Contract under review at PayBright"
      const failure = await fetch(`${simulatorUrl}/_simulator/contracts/${order.contract}/fail-next`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ operation: "capture", status: 400, message: reason }),
      })
      expect(failure.status).toBe(200)
      const { order: detail } = await admin("GET", `/admin/orders/${order.id}?fields=*payment_collections.payments`)
      const paymentId = detail.payment_collections[0].payments[0].id
      const language = (value: string) => ({ name: "lng", value, domain: new URL(adminUrl).hostname, path: "/" })
      await context.addCookies([language("fr")])
      try {
        const { page, panel } = await openPanel(order.id, { newTab: true })
        expect(await panel.locator("#paybright-status").textContent()).toBe("En attente de capture")
        // What the browser reports from the capture on: uncaught errors, and errors in the console.
        const reported: { kind: "pageerror" | "console"; text: string; where: string }[] = []
        page.on("pageerror", (error) =>
          reported.push({
            kind: "pageerror",
            text: error.message,
            where: (error.stack ?? "").split("\n").slice(1).join("\n"),
          })
        )
        page.on("console", (message) => {
          if (message.type() === "error")
            reported.push({ kind: "console", text: message.text(), where: message.location().url })
        })

        // Medusa's own button on its Payments card, and its own prompt.
        const medusaCapture = page.getByRole("button", { name: "Capture du paiement" })
        await medusaCapture.click()
        await confirm(page, /^Confirmer$/)
        // On the same page, no navigation: the refusal, its reason, and the one way to capture again.
        await panel.locator("#paybright-status", { hasText: /^Capture refusée$/ }).waitFor({ timeout: 10_000 })
        const records = panel.locator("#paybright-records")
        await records.getByText(reason).waitFor({ timeout: 10_000 })
        expect(await records.textContent()).toContain(`Capture de ${written(order.total)} depuis l’administrationrefus`)
        expect(await records.textContent()).toContain(
          `Pour capturer de nouveau les ${written(order.total)}, utilisez «\u00a0Capture du paiement\u00a0» sous Paiements.`
        )
        // One button captures that money, Medusa's: the panel offers no retry beside it.
        expect(await page.getByRole("button", { name: /Capture du paiement|Relancer la capture/ }).count()).toBe(1)
        expect(await panel.getByRole("button").count()).toBe(0)
        // Two reports are Medusa's own, from its Payments card, and none is the panel's: the browser's
        // log of the 400 its capture request was answered, and the error that request rejected with,
        // which Medusa's click handler (`await mutateAsync(…, { onError })`, which rethrows after
        // onError's toast) leaves uncaught.
        const medusas = (report: (typeof reported)[number]) =>
          (report.kind === "console" &&
            report.where.endsWith(`/admin/payments/${paymentId}/capture`) &&
            report.text.includes("status of 400")) ||
          (report.kind === "pageerror" &&
            report.text.includes(reason) &&
            !report.where.includes("medusa-payment-paybright"))
        expect(reported.filter((report) => !medusas(report))).toEqual([])
        // Medusa's handler leaves that error uncaught once: a second would be someone else's (the
        // page's scripts are served from the store's own folders, so a path does not tell whose).
        expect(reported.filter((report) => report.kind === "pageerror").length).toBeLessThanOrEqual(1)
        await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-refused-french.png"), fullPage: true })
        // The needs-attention list points to the same button, and offers no retry either.
        const list = await context.newPage()
        await list.goto(`${adminUrl}/orders`, { timeout: 120_000 })
        const entry = list
          .locator("#paybright-needs-attention")
          .locator('[data-kind="refused_capture"]', { hasText: `Commande n°\u00a0${order.display_id}` })
        await entry.waitFor({ timeout: 60_000 })
        expect(await entry.textContent()).toContain(
          `Pour capturer de nouveau les ${written(order.total)}, ouvrez la commande et utilisez «\u00a0Capture du paiement\u00a0» sous Paiements.`
        )
        expect(await entry.getByRole("button").count()).toBe(0)
        await list.close()

        // The one way offered: Medusa's button again, which makes the refusal good.
        await medusaCapture.click()
        await confirm(page, /^Confirmer$/)
        await panel.locator("#paybright-status", { hasText: /^Capturé$/ }).waitFor({ timeout: 30_000 })
        expect(await panel.locator("#paybright-amounts").textContent()).toContain(`Capturé${written(order.total)}`)
        expect(await records.locator("[data-paybright-hint]").count()).toBe(0)
        const ledger = await (await fetch(`${simulatorUrl}/_simulator/contracts/${order.contract}`)).json()
        expect(ledger.captures.map((capture: { amount: string }) => capture.amount)).toEqual([order.total])
        // Made good: the list no longer holds the refusal.
        const { items } = await admin("GET", "/admin/paybright/attention")
        expect(items.filter((item: { order_id: string | null }) => item.order_id === order.id)).toEqual([])
        await page.close()
      } finally {
        await context.addCookies([language("en")])
      }
    })

    it("in French, tells a stale tab's retry why there is nothing to retry, leaves no record, and writes no English", async () => {
      // A parcel's capture refused, in the lender's own (French) words: a retry of its amount is the way.
      const order = await placeOrder(2)
      const reason = "Contrat en révision chez PayBright"
      const refused = await shipRefusedParcel(order, reason)
      const language = (value: string) => ({ name: "lng", value, domain: new URL(adminUrl).hostname, path: "/" })
      await context.addCookies([language("fr")])
      try {
        // The first tab shows the refusal and its retry.
        const { page, panel } = await openPanel(order.id, { newTab: true })
        await panel.locator("#paybright-status", { hasText: /^Capture refusée$/ }).waitFor({ timeout: 60_000 })
        const records = panel.locator("#paybright-records")
        expect(await records.textContent()).toContain(
          `La capture de ${written(refused.amount)} sur le contrat PayBright ${order.contract} n’a pas été faite (PayBright a refusé la capture : ${reason})`
        )
        const retry = panel.getByRole("button", { name: `Relancer la capture de ${written(refused.amount)}` })
        await retry.waitFor()

        // Another tab captures the whole payment with Medusa's own Capture.
        const { order: detail } = await admin("GET", `/admin/orders/${order.id}?fields=*payment_collections.payments`)
        await admin("POST", `/admin/payments/${detail.payment_collections[0].payments[0].id}/capture`, {})

        // The first tab, stale, retries: it is told why in French, and nothing is written or moved.
        await retry.click()
        await confirm(page, /^Capturer /)
        const toast = page.getByText("Le montant de cette capture a déjà été capturé depuis; il n’y a rien à relancer.")
        await toast.waitFor({ timeout: 30_000 })
        // Its title in French typography: one no-break space before the colon.
        await page.getByText("Relancer la capture\u00a0: échec", { exact: true }).waitFor()
        await page.screenshot({
          path: path.join(ARTIFACTS, "admin-order-panel-stale-retry-french.png"),
          fullPage: true,
        })
        const { panel: answer } = await admin("GET", `/admin/paybright/orders/${order.id}/panel`)
        expect(answer.records.filter((record: { state: string }) => record.state === "pending")).toEqual([])
        const ledger = await (await fetch(`${simulatorUrl}/_simulator/contracts/${order.contract}`)).json()
        expect(ledger.captured).toBe(order.total)

        // Every French page of the plugin, read whole: the panel, the needs-attention list, the
        // settings. Only the lender's own words, which this store's tests chose, may be English.
        // One more order, awaiting capture, so that the list has an entry of its own whatever ran before.
        const awaiting = await placeOrder()
        await page.reload()
        await panel.locator("#paybright-status", { hasText: /^Capturé$/ }).waitFor({ timeout: 60_000 })
        const texts = [await panel.innerText()]
        await visit(page, `${adminUrl}/orders`)
        const attention = page.locator("#paybright-needs-attention")
        await attention.getByText(`Commande n°\u00a0${awaiting.display_id}`).waitFor({ timeout: 60_000 })
        texts.push(await attention.innerText())
        await visit(page, settingsUrl)
        await page.locator("#paybright-settings-form").waitFor({ state: "visible", timeout: 120_000 })
        texts.push(await page.locator("main").innerText())
        expect(englishIn(texts.join("\n"))).toEqual([])
        await page.close()
      } finally {
        await context.addCookies([language("en")])
      }
    })

    it("speaks the language the merchant picked in the admin, with Medusa's words and its date format", async () => {
      const order = await placeOrder()
      // What Medusa's profile page stores when French is picked.
      const language = (value: string) => ({ name: "lng", value, domain: new URL(adminUrl).hostname, path: "/" })
      await context.addCookies([language("fr")])
      try {
        const { page, panel } = await openPanel(order.id, { newTab: true })
        expect(await panel.locator("#paybright-status").textContent()).toBe("En attente de capture")
        const amounts = (await panel.locator("#paybright-amounts").textContent())!
        expect(amounts).toContain(`Autorisé${written(order.total)}`)
        // The day PayBright cancels the rest, as Medusa writes dates in French ("26 déc. 2026").
        expect(amounts).toMatch(/PayBright annule ce qui n’est pas capturé le \d{1,2} [a-zéû]+\.? \d{4}\./)
        // Medusa's own button, named in Medusa's own French words.
        expect(await panel.locator("#paybright-capture-hint").textContent()).toContain(
          "«\u00a0Capture du paiement\u00a0» sous Paiements"
        )
        // A fulfillment is Medusa's "expédition" (Créer une expédition); a shipment, its "Marquer comme expédiée".
        expect(await panel.locator("#paybright-capture-hint").textContent()).toContain(
          "sinon PayBright capture chaque expédition une fois marquée comme expédiée."
        )
        // Who acted, in words: the lender is PayBright, never the log's "lender".
        const timeline = (await panel.locator("#paybright-timeline").textContent())!
        expect(timeline).toContain("· PayBright")
        expect(timeline).not.toContain("lender")
        await page.getByRole("button", { name: "Capture du paiement" }).waitFor({ timeout: 30_000 })
        await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-french.png"), fullPage: true })

        await visit(page, `${adminUrl}/orders`)
        const attention = page.locator("#paybright-needs-attention")
        await attention.getByText(`Commande n°\u00a0${order.display_id}`).waitFor({ timeout: 60_000 })
        expect(await attention.textContent()).toContain("PayBright\u00a0: à traiter")
        expect(await attention.textContent()).toMatch(/en attente de capture · expire le .+ \((29|30) jours restants\)/)
        expect(await badgesOverflowing(attention)).toEqual([])

        // The settings page: amounts shown and typed as French writes them, what the server says in French.
        await visit(page, settingsUrl)
        const form = page.locator("#paybright-settings-form")
        await form.waitFor({ state: "visible", timeout: 120_000 })
        expect(await page.textContent("#paybright-settings-form")).toContain("Environnement")
        // The demo's APR, under the hint "(p. ex. 9,99)", as French writes it.
        expect(await page.inputValue("#financingApr")).toBe("9,99")
        const saved = /\(modification (\d+)\)/.exec((await page.textContent("#paybright-settings-version")) ?? "")
        const nextVersion = Number(saved?.[1]) + 1

        // A wrong value is named beside its field, in French, with French amounts; nothing is saved.
        await page.fill("#minOrderAmount", "1 000,00")
        await page.fill("#maxOrderAmount", "50")
        await page.click("#paybright-settings-save")
        await page.locator("#maxOrderAmount-error").waitFor({ state: "visible", timeout: 60_000 })
        expect(await page.textContent("#maxOrderAmount-error")).toBe(
          "«\u00a0Total de commande maximal\u00a0» ne doit pas être inférieur à «\u00a0Total de commande minimal\u00a0» (1\u202f000,00)"
        )
        expect(await page.textContent("#paybright-settings-problem")).toBe(
          "Non enregistré\u00a0: corrigez les champs indiqués ci-dessous."
        )
        await page.screenshot({ path: path.join(ARTIFACTS, "admin-settings-french-error.png"), fullPage: true })

        // Typed with an ordinary space, as a person types it: stored as the plain decimal, shown back in French
        // (the limits the merchant saved in English above).
        await page.fill("#minOrderAmount", "100,00")
        await page.fill("#maxOrderAmount", "5 000,00")
        await page.click("#paybright-settings-save")
        await page.getByText("Paramètres PayBright enregistrés").waitFor({ state: "visible", timeout: 60_000 })
        await page.getByText("PayBright (bac à sable) a accepté la clé et le jeton d’API.").waitFor({ timeout: 10_000 })
        await page
          .locator("#paybright-settings-version", { hasText: `(modification ${nextVersion})` })
          .waitFor({ timeout: 60_000 })
        await page.screenshot({ path: path.join(ARTIFACTS, "admin-settings-french.png"), fullPage: true })
        // Nothing the server wrote reaches the French page in English.
        expect(await page.textContent("#paybright-settings")).not.toMatch(/sandbox|worker|accepted|must/i)
        await page.reload()
        await form.waitFor({ state: "visible", timeout: 120_000 })
        // Intl's narrow no-break space between groups, as Medusa's French amounts.
        expect(await page.inputValue("#maxOrderAmount")).toBe("5\u202f000,00")
        expect(await page.inputValue("#minOrderAmount")).toBe("100,00")
        const { settings } = await admin("GET", "/admin/paybright/settings")
        expect(settings[0].values).toMatchObject({
          minOrderAmount: "100.00",
          maxOrderAmount: "5000.00",
          financingApr: "9.99",
        })
        expect(settings[0].version).toBe(nextVersion)
        await page.close()
      } finally {
        await context.addCookies([language("en")])
      }
    })

    /**
     * A French-speaking merchant's browser, logged in as the merchant's own: the admin in French
     * (Medusa's language cookie) and money written as a French Canadian browser writes it.
     */
    async function frenchMerchant() {
      const french = await browser.newContext({
        viewport: { width: 1400, height: 1100 },
        locale: "fr-CA",
        storageState: await context.storageState(),
      })
      await french.addCookies([{ name: "lng", value: "fr", domain: new URL(adminUrl).hostname, path: "/" }])
      return french
    }

    /** A text with its no-break spaces as plain spaces: French puts them before "$", ":" and between digits. */
    const plain = (text: string | null) => (text ?? "").replace(/[\u00a0\u202f]/g, " ")

    /** An amount as a French Canadian browser writes money ("1 044,12 $"), its spaces plain. */
    function enFrançais(amount: string | number) {
      const text = plain(
        new Intl.NumberFormat("fr-CA", { style: "currency", currency: "CAD", currencyDisplay: "narrowSymbol" }).format(
          Number(amount)
        )
      )
      expect(text).toMatch(/^\d{1,3}( \d{3})*,\d\d \$$/)
      return text
    }

    /** A pattern of `text`, whatever kind of space the browser writes. */
    const loosely = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "[\\s\\u00a0\\u202f]")

    /** A Medusa order edit made through its admin API: each line to its new quantity, then requested. */
    async function requestEdit(orderId: string, lines: { id: string; quantity: number }[]) {
      await admin("POST", "/admin/order-edits", { order_id: orderId })
      for (const line of lines) {
        await admin("POST", `/admin/order-edits/${orderId}/items/item/${line.id}`, { quantity: line.quantity })
      }
      await admin("POST", `/admin/order-edits/${orderId}/request`, {})
    }

    type Payment = {
      id: string
      amount: number
      provider_id: string
      canceled_at: string | null
      data: { gateway_reference?: string } | null
      captures?: { amount: number }[]
    }

    /** The order as Medusa's admin API has it: its total, its summary, and every payment. */
    async function medusaOrder(orderId: string) {
      const { order } = await admin(
        "GET",
        `/admin/orders/${orderId}?fields=id,total,summary,*items,*payment_collections.payments,payment_collections.payments.captures.amount`
      )
      const payments: Payment[] = order.payment_collections.flatMap(
        (collection: { payments?: Payment[] }) => collection.payments ?? []
      )
      return { order, live: payments.filter((payment) => !payment.canceled_at) }
    }

    /** Waits until the contract lives on a payment of the order other than `besides`: its carry. */
    async function carried(orderId: string, contract: string, besides: string[]) {
      for (let i = 0; i < 300; i++) {
        const books = await medusaOrder(orderId)
        const payment = books.live.find(
          (each) => each.data?.gateway_reference === contract && !besides.includes(each.id)
        )
        if (payment) return { ...books, payment }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new Error(`contract ${contract} of order ${orderId} was not carried into a new payment within 30 s`)
    }

    it("in French, follows an order edit confirmed on the open page to the carried payment, never showing it cancelled, and keeps PayBright's approval", async () => {
      // Two products; the edit takes the second off, so the carried payment is less than PayBright approved.
      const order = await placeOrder(2)
      const before = await medusaOrder(order.id)
      const [first] = before.live
      await requestEdit(order.id, [{ id: before.order.items[1].id, quantity: 0 }])

      const french = await frenchMerchant()
      try {
        const page = await french.newPage()
        await page.goto(`${adminUrl}/orders/${order.id}`, { timeout: 120_000 })
        const panel = page.locator(`#paybright-order-panel[data-order-id="${order.id}"]`)
        await panel.locator("#paybright-status", { hasText: /^En attente de capture$/ }).waitFor({ timeout: 120_000 })
        const amounts = panel.locator("#paybright-amounts")
        expect(plain(await amounts.textContent())).toContain(`Autorisé${enFrançais(order.total)}`)
        // Everything the panel shows from here on, as the merchant would see it change.
        await page.evaluate(() => {
          const seen: string[] = []
          Object.assign(window, { paybrightSeen: seen })
          const read = () => {
            const status = document.querySelector("#paybright-order-panel #paybright-status")?.textContent ?? ""
            const amounts = document.querySelector("#paybright-order-panel #paybright-amounts")?.textContent ?? ""
            const now = `${status} | ${amounts}`
            if (seen[seen.length - 1] !== now) seen.push(now)
          }
          read()
          new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true })
        })

        // Medusa's own button on the requested edit, in its French words.
        await page.getByRole("button", { name: "Forcer la confirmation" }).click()
        await page.getByText("Édition de commande confirmée").waitFor({ timeout: 60_000 })
        const { order: edited, payment } = await carried(order.id, order.contract, [first.id])
        expect(Number(payment.amount)).toBeLessThan(Number(order.total))
        expect(Number(payment.amount)).toBe(Number(edited.total))

        // No reload: the panel finds the carried payment by itself, as Medusa's card does.
        await amounts
          .filter({ hasText: new RegExp(`Autorisé${loosely(enFrançais(payment.amount))}`) })
          .waitFor({ timeout: 30_000 })
        await panel.locator("#paybright-status", { hasText: /^En attente de capture$/ }).waitFor({ timeout: 10_000 })
        expect(plain(await amounts.textContent())).toContain(`Reste${enFrançais(payment.amount)}`)
        const seen = plain(
          (await page.evaluate(() => (window as unknown as { paybrightSeen: string[] }).paybrightSeen)).join("\n")
        )
        // Between Medusa cancelling the payment and the carry, the panel says the contract is being
        // carried; never Medusa's red "Annulé" with what was "Non capturé".
        expect(seen).not.toMatch(/^Annulé|Non capturé/m)

        // The approval line says what PayBright approved, not what the carried payment holds.
        const timeline = plain(await panel.locator("#paybright-timeline").textContent())
        expect(timeline).toContain(`Approbation vérifiée : contrat ${order.contract} pour ${enFrançais(order.total)}.`)
        expect(timeline).not.toContain(`pour ${enFrançais(payment.amount)}.`)
        const ledger = await (await fetch(`${simulatorUrl}/_simulator/contracts/${order.contract}`)).json()
        expect(ledger.authorized).toBe(order.total)
        expect(englishIn(await panel.innerText())).toEqual([])
        await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-carried-french.png"), fullPage: true })
      } finally {
        await french.close()
      }
    })

    it("in French, lists what Medusa says is owed beyond the loan after an edit and an exchange, and a manual order's capture as the merchant's", async () => {
      // An edit raises the order above its contract: the contract is carried for what it covers.
      const order = await placeOrder(2)
      const placed = await medusaOrder(order.id)
      const [item] = placed.order.items
      await requestEdit(order.id, [{ id: item.id, quantity: 2 }])
      await admin("POST", `/admin/order-edits/${order.id}/confirm`, {})
      const edit = await carried(order.id, order.contract, [placed.live[0].id])

      // One of the two shipped, PayBright captures it; then it is exchanged for the same product.
      const { stock_locations } = await admin("GET", "/admin/stock-locations")
      const parcel = await admin("POST", `/admin/orders/${order.id}/fulfillments?fields=fulfillments.id`, {
        items: [{ id: item.id, quantity: 1 }],
        location_id: stock_locations[0].id,
      })
      await admin("POST", `/admin/orders/${order.id}/fulfillments/${parcel.order.fulfillments[0].id}/shipments`, {
        items: [{ id: item.id, quantity: 1 }],
      })
      for (let i = 0; ; i++) {
        const { captures } = await admin("GET", `/admin/paybright/orders/${order.id}/captures`)
        if (captures.some((capture: { state: string }) => capture.state === "done")) break
        if (i === 300) throw new Error(`the parcel of order ${order.id} was not captured within 30 s`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const { exchange } = await admin("POST", "/admin/exchanges", { order_id: order.id })
      await admin("POST", `/admin/exchanges/${exchange.id}/inbound/items`, { items: [{ id: item.id, quantity: 1 }] })
      await admin("POST", `/admin/exchanges/${exchange.id}/outbound/items`, {
        items: [{ variant_id: item.variant_id, quantity: 1 }],
      })
      await admin("POST", `/admin/exchanges/${exchange.id}/request`, {})
      const books = await carried(order.id, order.contract, [placed.live[0].id, edit.payment.id])

      // What Medusa says the order owes, less what the live PayBright payment can still capture of it.
      const owed = Number(books.order.summary.pending_difference)
      const captured = (books.payment.captures ?? []).reduce((sum, capture) => sum + Number(capture.amount), 0)
      const capturable = Math.max(Math.min(Number(books.payment.amount) - captured, owed), 0)
      const beyond = Math.round((owed - capturable) * 100) / 100
      expect(beyond).toBeGreaterThan(0)

      const french = await frenchMerchant()
      try {
        const page = await french.newPage()
        await page.goto(`${adminUrl}/orders`, { timeout: 120_000 })
        const attention = page.locator("#paybright-needs-attention")
        const above = attention.locator('[data-kind="uncovered_balance"]', {
          hasText: `Commande n°\u00a0${order.display_id}`,
        })
        await above.waitFor({ timeout: 120_000 })
        const said = plain(await above.innerText())
        expect(said).toContain(`Commande n° ${order.display_id} · ${enFrançais(beyond)}`)
        expect(said).toContain(
          `Le total de la commande dépasse maintenant ce que couvre le contrat PayBright ${order.contract} : encaissez les ${enFrançais(beyond)} restants autrement`
        )
        expect(said).toContain("au-delà du prêt")

        // A second order, paid while the registration captures nothing by itself (Settings → PayBright,
        // "Capturer automatiquement : Jamais"): its capture is the merchant's.
        const registration = "/admin/paybright/settings/pp_paybright_paybright"
        await admin("POST", registration, { captureOn: "manual" })
        let manual: Awaited<ReturnType<typeof placeOrder>>
        try {
          // Saved settings reach new payments within seconds.
          for (let attempt = 0; ; attempt++) {
            manual = await placeOrder()
            const { panel } = await admin("GET", `/admin/paybright/orders/${manual.id}/panel`)
            if (panel.capture_on === "manual") break
            if (attempt === 5) throw new Error(`order ${manual.id} was authorized to capture on ${panel.capture_on}`)
            await new Promise((resolve) => setTimeout(resolve, 2000))
          }
        } finally {
          await admin("POST", registration, { captureOn: "shipment" })
        }

        await page.reload({ timeout: 120_000 })
        // The manual order: nothing promises a capture at shipment, in the list or on its panel.
        const open = attention.locator('[data-kind="open_authorization"]', {
          hasText: `Commande n°\u00a0${manual!.display_id}`,
        })
        await open.waitFor({ timeout: 60_000 })
        const listed = plain(await open.innerText())
        expect(listed).toContain(
          "Rien ne la capture automatiquement (capture à la main) : capturez-la depuis la commande ; PayBright annule ce qui n’est pas capturé le"
        )
        expect(listed).not.toContain("expédi")
        expect(englishIn(await attention.innerText())).toEqual([])
        await page.screenshot({ path: path.join(ARTIFACTS, "admin-orders-beyond-the-loan-french.png"), fullPage: true })

        await visit(page, `${adminUrl}/orders/${manual!.id}`)
        const panel = page.locator(`#paybright-order-panel[data-order-id="${manual!.id}"]`)
        await panel.locator("#paybright-status", { hasText: /^En attente de capture$/ }).waitFor({ timeout: 120_000 })
        expect(plain(await panel.locator("#paybright-capture-hint").textContent())).toBe(
          `Rien n’est capturé automatiquement sur cette commande (capture à la main) : capturez les ${enFrançais(manual!.total)} avec « Capture du paiement » sous Paiements avant que PayBright ne les annule à la date indiquée ci-dessus.`
        )
        expect(plain(await panel.innerText())).not.toContain("expédi")
        expect(englishIn(await panel.innerText())).toEqual([])
        await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-manual-french.png"), fullPage: true })
      } finally {
        await french.close()
      }
    })
  })
})
