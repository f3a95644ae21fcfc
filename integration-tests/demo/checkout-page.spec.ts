import fs from "node:fs"
import path from "node:path"
import { chromium, type Browser } from "playwright-core"
import { freePort } from "../helpers/app-port"
import { DemoRun } from "./run-demo"

jest.setTimeout(300_000)

const ARTIFACTS = path.resolve(__dirname, "../../test-artifacts")

/** A person buying on the demo's checkout page, in a real headless Chromium. */
describe("npm run demo -- --serve, in a browser", () => {
  let demo: DemoRun
  let browser: Browser
  let shopUrl: string

  beforeAll(async () => {
    demo = new DemoRun(["--serve", "--port", String(await freePort())])
    shopUrl = (await demo.waitFor(/Shop with PayBright:\s+(\S+)/))[1]
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    })
    fs.mkdirSync(ARTIFACTS, { recursive: true })
  })

  afterAll(async () => {
    await browser?.close()
    const code = await demo?.interrupt()
    expect(demo.output).toContain("Stopping")
    expect(code).toBe(130)
  })

  it("buys with PayBright, approves on the lender's page, and lands on the order confirmation", async () => {
    const page = await browser.newPage()
    await page.goto(shopUrl)
    await page.locator("button.buy").first().click()
    await page.waitForSelector("#approve")
    expect(await page.textContent("body")).toContain("Finance your purchase")
    await page.click("#approve")
    await page.waitForSelector("#confirmation", { timeout: 30_000 })
    const orderId = await page.textContent("#order-id")
    expect(orderId).toMatch(/^order_/)
    expect(page.url()).toContain(`/order/${orderId}/confirmed`)
    expect(await page.textContent("#order-total")).toMatch(/\$/)
    await page.screenshot({ path: path.join(ARTIFACTS, "demo-order-confirmed.png"), fullPage: true })
    await page.close()
  })

  it("sends a declined shopper back to the shop with the reason", async () => {
    const page = await browser.newPage()
    await page.goto(shopUrl)
    await page.locator("button.buy").nth(1).click()
    await page.waitForSelector("#decline")
    await page.click("#decline")
    await page.waitForSelector("#notice")
    expect(await page.textContent("#notice")).toContain("did not approve")
    await page.screenshot({ path: path.join(ARTIFACTS, "demo-declined.png"), fullPage: true })
    await page.close()
  })
})
