import fs from "node:fs"
import path from "node:path"
import type { Browser, BrowserContext } from "playwright-core"
import { launchChromium } from "../../test-support/browser"
import { freePort } from "../../test-support/free-port"
import { DemoRun } from "./run-demo"
import { demoAdminApi } from "../helpers/demo-admin"

jest.setTimeout(300_000)

const ARTIFACTS = path.resolve(__dirname, "../../test-artifacts")

/** A person buying on the demo's checkout page, in a real headless Chromium. */
describe("npm run demo -- --serve, in a browser", () => {
  let demo: DemoRun
  let browser: Browser
  // One context for the whole file: the packaged Chromium runs as a single process, which ends when its last context closes.
  let context: BrowserContext
  let shopUrl: string
  let adminUrl: string
  let placedOrderId: string

  beforeAll(async () => {
    demo = new DemoRun(["--serve", "--port", String(await freePort())])
    shopUrl = (await demo.waitFor(/Shop with PayBright:\s+(\S+)/))[1]
    adminUrl = (await demo.waitFor(/Medusa admin:\s+(\S+)/))[1]
    browser = await launchChromium()
    context = await browser.newContext()
    fs.mkdirSync(ARTIFACTS, { recursive: true })
  })

  afterAll(async () => {
    await browser?.close()
    const code = await demo?.interrupt()
    expect(demo.output).toContain("Stopping")
    expect(code).toBe(130)
  })

  it("buys with PayBright through the storefront kit, approves on the lender's page, lands on the order, then starts a new cart", async () => {
    const page = await context.newPage()
    await page.goto(shopUrl)
    // The estimate shows for the products within its terms (from 100.00), labelled an estimate: the
    // sofa, the treadmill and the bookshelf; never for the 64.50 lamp.
    const financing = page.getByTestId("paybright-financing")
    await financing.first().waitFor()
    expect(await financing.count()).toBe(3)
    expect(await financing.first().textContent()).toMatch(
      /^or from \$\d+\.\d\d\/month with PayBright.*Estimate: 12 monthly payments at 9\.99% APR/
    )
    await page.screenshot({ path: path.join(ARTIFACTS, "demo-shop.png"), fullPage: true })

    await page.locator("button.buy").first().click()
    await page.waitForURL(/\/ca\/checkout\?step=payment$/)
    expect(await page.textContent("#redirect-notice")).toContain("You will be sent to PayBright")
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
    await page.goto(`${adminUrl}/orders`, { timeout: 120_000 })
    const awaiting = page.locator("#paybright-needs-attention")
    await awaiting.getByText(`Order #${order.display_id}`).waitFor({ state: "visible", timeout: 60_000 })
    expect(await awaiting.textContent()).toMatch(/expires .+\((29|30) days left\)/)
    // The order list below it loads on its own; the picture shows both.
    await page.locator("table").getByText(`#${order.display_id}`).first().waitFor({ state: "visible", timeout: 60_000 })
    await awaiting.waitFor({ state: "visible" })
    await page.screenshot({ path: path.join(ARTIFACTS, "admin-orders-paybright-awaiting-capture.png"), fullPage: true })

    const items = order.items.map((item: { id: string; quantity: number }) => ({
      id: item.id,
      quantity: item.quantity,
    }))
    const locations = await get("/admin/stock-locations")
    const fulfilled = await call(`/admin/orders/${placedOrderId}/fulfillments?fields=fulfillments.id`, {
      items,
      location_id: locations.stock_locations[0].id,
    })
    await call(`/admin/orders/${placedOrderId}/fulfillments/${fulfilled.order.fulfillments[0].id}/shipments`, { items })
    // The capture follows the shipment event; the page shows what is recorded when it loads.
    for (let i = 0; i < 100; i++) {
      const { captures } = await get(`/admin/paybright/orders/${placedOrderId}/captures`)
      if (captures.some((capture: { state: string }) => capture.state === "done")) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }

    await page.goto(`${adminUrl}/orders/${placedOrderId}`, { timeout: 120_000 })
    const widget = page.locator("#paybright-order-panel")
    await widget.locator("#paybright-status", { hasText: /^Captured$/ }).waitFor({ state: "visible", timeout: 60_000 })
    expect(await widget.locator("#paybright-records").textContent()).toMatch(/Capture \d+\.\d\d CAD at shipment/)
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
    expect(page.url()).toMatch(/\/ca\/checkout\?step=payment&paybright_status=declined$/)
    expect(await page.textContent("#notice")).toBe(
      "PayBright did not approve the application. Please choose another way to pay."
    )
    await page.waitForSelector("#cart")
    await page.screenshot({ path: path.join(ARTIFACTS, "demo-declined.png"), fullPage: true })
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
    expect(page.url()).toMatch(/paybright_status=cancelled$/)
    expect(await page.textContent("#notice")).toBe(
      "Vous avez quitté la demande PayBright. Rien n’a été facturé. Veuillez choisir un mode de paiement."
    )
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
  })

  /** The Medusa admin API, logged in as the demo's admin. */
  const adminApi = () => demoAdminApi(new URL(adminUrl).origin)

  async function cartCookie() {
    return (await context.cookies()).find((cookie) => cookie.name === "demo_cart_id")?.value
  }
})
