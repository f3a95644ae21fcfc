import fs from "node:fs"
import path from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { launchChromium } from "../../test-support/browser"
import { freePort } from "../../test-support/free-port"
import { ADMIN_LOGIN } from "../../demo/store"
import { demoAdminApi } from "../helpers/demo-admin"
import { DemoRun } from "./run-demo"

jest.setTimeout(300_000)

const ARTIFACTS = path.resolve(__dirname, "../../test-artifacts")

/**
 * The merchant's side in a real headless Chromium: the Medusa admin of `npm run demo -- --serve`,
 * with the plugin installed from its package, its order panel, needs-attention list and settings.
 */
describe("the PayBright admin, in a browser", () => {
  let demo: DemoRun
  let browser: Browser
  let context: BrowserContext
  let shopUrl: string
  let adminUrl: string
  let settingsUrl: string
  let simulatorUrl: string
  let storeUrl: string
  let admin: Awaited<ReturnType<typeof demoAdminApi>>["request"]

  beforeAll(async () => {
    demo = new DemoRun(["--serve", "--port", String(await freePort())])
    shopUrl = (await demo.waitFor(/Shop with PayBright:\s+(\S+)/))[1]
    adminUrl = (await demo.waitFor(/Medusa admin:\s+(\S+)/))[1]
    settingsUrl = (await demo.waitFor(/PayBright settings:\s+(\S+)/))[1]
    simulatorUrl = (await demo.waitFor(/PayBright simulator:\s+(\S+)/))[1]
    storeUrl = new URL(adminUrl).origin
    admin = (await demoAdminApi(storeUrl)).request
    browser = await launchChromium()
    fs.mkdirSync(ARTIFACTS, { recursive: true })
    context = await browser.newContext({ viewport: { width: 1400, height: 1100 } })
    const page = await context.newPage()
    await page.goto(`${adminUrl}/login`, { timeout: 120_000 })
    await page.fill('input[name="email"]', ADMIN_LOGIN.email, { timeout: 120_000 })
    await page.fill('input[name="password"]', ADMIN_LOGIN.password)
    await page.click('button[type="submit"]')
    await page.waitForURL((url) => !url.pathname.endsWith("/login"), { timeout: 60_000 })
    await page.close()
  })

  afterAll(async () => {
    await browser?.close()
    const code = await demo?.interrupt()
    expect(code).toBe(130)
  })

  /** A shopper buys the first product on the demo's checkout page and is approved. */
  async function placeOrder(): Promise<{ id: string; display_id: number; total: string; contract: string }> {
    const page = await context.newPage()
    await page.goto(shopUrl)
    await page.locator("button.buy").first().click()
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

  async function openPanel(orderId: string): Promise<{ page: Page; panel: ReturnType<Page["locator"]> }> {
    const page = await context.newPage()
    await page.goto(`${adminUrl}/orders/${orderId}`, { timeout: 120_000 })
    const panel = page.locator("#paybright-order-panel")
    await panel.locator("#paybright-status").waitFor({ state: "visible", timeout: 120_000 })
    return { page, panel }
  }

  async function confirm(page: Page, button: RegExp) {
    await page.getByRole("alertdialog").getByRole("button", { name: button }).click()
  }

  it("shows an order paid with PayBright, captures the remainder from the panel and updates it, with its timeline", async () => {
    const order = await placeOrder()
    const { page, panel } = await openPanel(order.id)
    expect(await panel.locator("#paybright-status").textContent()).toBe("Awaiting capture")
    const amounts = panel.locator("#paybright-amounts")
    expect(await amounts.textContent()).toContain(`Authorized${order.total} CAD`)
    expect(await amounts.textContent()).toContain(`Remaining${order.total} CAD`)
    expect(await panel.textContent()).toContain(`Contract${order.contract}`)
    expect(await panel.locator("#paybright-timeline").textContent()).toContain(
      `Approval verified: contract ${order.contract}`
    )
    await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-awaiting-capture.png"), fullPage: true })

    await panel.getByRole("button", { name: `Capture ${order.total} CAD` }).click()
    const dialog = page.getByRole("alertdialog")
    expect(await dialog.textContent()).toContain(
      `PayBright will capture ${order.total} CAD on contract ${order.contract}`
    )
    await confirm(page, new RegExp(`^Capture ${order.total.replace(".", "\\.")} CAD$`))
    await panel.locator("#paybright-status", { hasText: /^Captured$/ }).waitFor({ timeout: 60_000 })
    expect(await amounts.textContent()).toContain(`Captured${order.total} CAD`)
    expect(await amounts.textContent()).toContain("Remaining0.00 CAD")
    expect(await panel.locator("#paybright-records").textContent()).toContain(
      `Capture ${order.total} CAD from the admin`
    )
    expect(await panel.locator("#paybright-timeline").textContent()).toContain(
      `Captured ${order.total} CAD on PayBright contract ${order.contract}.`
    )
    // The lender captured the same amount.
    const ledger = await (await fetch(`${simulatorUrl}/_simulator/contracts/${order.contract}`)).json()
    expect(ledger.captured).toBe(order.total)
    await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-captured.png"), fullPage: true })
    // The panel alone, once the confirmation's toast is gone: the README's picture (docs/admin-order-panel.png).
    await page.getByText("Capture the remainder").waitFor({ state: "hidden", timeout: 30_000 })
    await panel.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel.png") })
    await page.close()
  })

  it("lists a refused capture under needs attention, and retries it from the order's panel", async () => {
    const order = await placeOrder()
    const failure = await fetch(`${simulatorUrl}/_simulator/contracts/${order.contract}/fail-next`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ operation: "capture", status: 400, message: "Contract on hold at PayBright" }),
    })
    expect(failure.status).toBe(200)
    const { order: detail } = await admin("GET", `/admin/orders/${order.id}?fields=*items`)
    const items = detail.items.map((item: { id: string; quantity: number }) => ({
      id: item.id,
      quantity: item.quantity,
    }))
    const { stock_locations } = await admin("GET", "/admin/stock-locations")
    const fulfilled = await admin("POST", `/admin/orders/${order.id}/fulfillments?fields=fulfillments.id`, {
      items,
      location_id: stock_locations[0].id,
    })
    await admin("POST", `/admin/orders/${order.id}/fulfillments/${fulfilled.order.fulfillments[0].id}/shipments`, {
      items,
    })
    for (let i = 0; i < 100; i++) {
      const { captures } = await admin("GET", `/admin/paybright/orders/${order.id}/captures`)
      if (captures.some((capture: { state: string }) => capture.state === "refused")) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }

    const list = await context.newPage()
    await list.goto(`${adminUrl}/orders`, { timeout: 120_000 })
    const attention = list.locator("#paybright-needs-attention")
    const entry = attention.locator('[data-kind="refused_capture"]', { hasText: `Order #${order.display_id}` })
    await entry.waitFor({ state: "visible", timeout: 120_000 })
    expect(await entry.textContent()).toContain("capture refused")
    expect(await entry.textContent()).toContain("Contract on hold at PayBright")
    await list.locator("table").getByText(`#${order.display_id}`).first().waitFor({ state: "visible", timeout: 60_000 })
    await list.screenshot({ path: path.join(ARTIFACTS, "admin-orders-paybright-needs-attention.png"), fullPage: true })
    await list.close()

    const { page, panel } = await openPanel(order.id)
    expect(await panel.locator("#paybright-status").textContent()).toBe("Capture failed")
    expect(await panel.locator("#paybright-records").textContent()).toContain("Contract on hold at PayBright")
    await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-capture-refused.png"), fullPage: true })
    await panel.getByRole("button", { name: `Retry capture of ${order.total} CAD` }).click()
    expect(await page.getByRole("alertdialog").textContent()).toContain(
      `PayBright will be asked again to capture ${order.total} CAD`
    )
    await confirm(page, /^Capture /)
    await panel.locator("#paybright-status", { hasText: /^Captured$/ }).waitFor({ timeout: 60_000 })
    expect(await panel.locator("#paybright-records").textContent()).toContain(`Capture ${order.total} CAD at shipment`)
    await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-retried.png"), fullPage: true })
    await page.close()
  })

  it("shows an order cancelled while PayBright refused the void as a live loan, and releases it from the panel", async () => {
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
    expect(await panel.locator("#paybright-status").textContent()).toBe("Loan not released")
    const records = panel.locator("#paybright-records")
    expect(await records.textContent()).toContain(`Release of the loan ${order.total} CAD when the order was cancelled`)
    expect(await records.textContent()).toContain("Contract locked at PayBright")
    await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-loan-not-released.png"), fullPage: true })
    await panel.getByRole("button", { name: "Retry the release" }).click()
    expect(await page.getByRole("alertdialog").textContent()).toContain(
      `PayBright will be asked again to void contract ${order.contract}`
    )
    await confirm(page, /^Void the contract$/)
    await panel.locator("#paybright-status", { hasText: /^Cancelled · loan released$/ }).waitFor({ timeout: 60_000 })
    expect(await panel.locator("#paybright-timeline").textContent()).toContain(
      `Released PayBright contract ${order.contract}`
    )
    const ledger = await (await fetch(`${simulatorUrl}/_simulator/contracts/${order.contract}`)).json()
    expect(ledger.status).toBe("VOIDED")
    await page.screenshot({ path: path.join(ARTIFACTS, "admin-order-panel-loan-released.png"), fullPage: true })
    await page.close()
  })

  it("keeps the shop name and limits saved on the settings page, token masked, and the next checkout uses them without a restart", async () => {
    const page = await context.newPage()
    await page.goto(settingsUrl, { timeout: 120_000 })
    const form = page.locator("#paybright-settings-form")
    await form.waitFor({ state: "visible", timeout: 120_000 })
    expect(await page.inputValue("#shopName")).toBe("PayBright Demo Furniture")
    expect(await page.textContent("#paybright-settings-new-payments")).toContain("They apply to new payments")
    expect(await page.inputValue("#apiToken")).toBe("")
    expect(await page.getAttribute("#apiToken", "placeholder")).toMatch(/^•+ from medusa-config\.ts/)
    // The storefront's financing terms, as the demo's medusa-config.ts sets them.
    expect(await page.inputValue("#financingMonths")).toBe("12")
    expect(await page.inputValue("#financingApr")).toBe("9.99")
    expect(await page.inputValue("#promotionalWidgetKey")).toBe("")

    // A wrong value is named beside its field, and nothing is saved.
    await page.fill("#shopName", "Maison Dupont Demo")
    await page.fill("#minOrderAmount", "100")
    await page.fill("#maxOrderAmount", "50")
    await page.click("#paybright-settings-save")
    await page.locator("#maxOrderAmount-error").waitFor({ state: "visible", timeout: 60_000 })
    expect(await page.textContent("#maxOrderAmount-error")).toContain("must not be less than minOrderAmount")
    await page.screenshot({ path: path.join(ARTIFACTS, "admin-settings-invalid.png"), fullPage: true })

    await page.fill("#maxOrderAmount", "5000")
    await page.click("#paybright-settings-save")
    await page.getByText("PayBright settings saved").waitFor({ state: "visible", timeout: 60_000 })
    await page.reload()
    await form.waitFor({ state: "visible", timeout: 120_000 })
    await page.locator("#paybright-settings-version", { hasText: "Version 1" }).waitFor({ timeout: 60_000 })
    expect(await page.inputValue("#shopName")).toBe("Maison Dupont Demo")
    expect(await page.inputValue("#minOrderAmount")).toBe("100.00")
    expect(await page.inputValue("#maxOrderAmount")).toBe("5000.00")
    expect(await page.inputValue("#apiToken")).toBe("")
    expect(await page.getAttribute("#apiToken", "placeholder")).toMatch(/^•+/)
    expect(await page.textContent("#paybright-settings-version")).toContain(`by ${ADMIN_LOGIN.email}`)
    expect(await page.content()).not.toContain("sim_test_token")
    await page.screenshot({ path: path.join(ARTIFACTS, "admin-settings-saved.png"), fullPage: true })
    await page.close()

    // The next checkout, on the same running store: the lender's page shows the new name it was signed with.
    const shop = await context.newPage()
    await shop.goto(shopUrl)
    await shop.locator("button.buy").first().click()
    await shop.getByTestId("paybright-button").click({ timeout: 60_000 })
    await shop.waitForSelector("#approve", { timeout: 60_000 })
    expect(await shop.textContent(".shop")).toContain("Maison Dupont Demo")
    await shop.screenshot({ path: path.join(ARTIFACTS, "simulator-application-new-shop-name.png"), fullPage: true })
    await shop.close()
  })
})
