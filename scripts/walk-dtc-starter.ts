/**
 * Walks a shopper's PayBright journey through Medusa's starter storefront (medusajs/dtc-starter,
 * changed as docs/storefront/dtc-starter.md says) in Chromium, and saves a screenshot of each step
 * into docs/storefront/. Run against `npm run demo -- --serve --storefront-url http://localhost:8000`
 * and the starter on port 8000:
 *
 *   npx ts-node --transpile-only scripts/walk-dtc-starter.ts [storefront URL] [product handle]
 *
 * Fails, naming the step, as soon as a page does not show what the guide promises.
 */
import path from "node:path"
import type { Page } from "playwright-core"
import { launchChromium } from "../test-support/browser"

const STOREFRONT = process.argv[2] ?? "http://localhost:8000"
const PRODUCT = process.argv[3] ?? "sofa"
const SHOTS = path.resolve(__dirname, "../docs/storefront")
const TIMEOUT = 120_000

async function main() {
  const browser = await launchChromium()
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  page.setDefaultTimeout(TIMEOUT)
  const shot = async (name: string) => {
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })
    console.log(`✔ ${name}`)
  }
  try {
    // 1. The product page, with the financing estimate.
    // networkidle: the page is hydrated, so "Add to cart" is wired up when clicked.
    await page.goto(`${STOREFRONT}/ca/products/${PRODUCT}`, { waitUntil: "networkidle" })
    const financing = page.getByTestId("paybright-financing")
    await financing.waitFor()
    expectText(await financing.textContent(), /or from \$[\d,]+\.\d\d\/month with PayBright.*Estimate:/, "the estimate")
    await shot("01-product-financing")

    // 2. Into the cart, then checkout.
    await addToCart(page)
    await page.goto(`${STOREFRONT}/ca/cart`)
    await page.getByTestId("checkout-button").waitFor()
    await shot("02-cart")
    const firstCart = await cartCookie()
    await checkoutToPayBright(page, shot, true)

    // 3. The simulator's application page: approve.
    await page.waitForSelector("#approve")
    await shot("05-paybright-application")
    await page.click("#approve")

    // 4. Back on the starter's order confirmation page, PayBright as the payment.
    await page.waitForURL(/\/ca\/order\/order_[^/]+\/confirmed$/)
    await page.getByTestId("payment-method").waitFor()
    expectText(await page.getByTestId("payment-method").textContent(), /^PayBright financing$/, "the payment method")
    await shot("06-order-confirmed")
    if ((await cartCookie()) !== undefined) throw new Error("the completed cart is still in the _medusa_cart_id cookie")

    // 5. A new cart that works.
    // networkidle: the page is hydrated, so "Add to cart" is wired up when clicked.
    await page.goto(`${STOREFRONT}/ca/products/${PRODUCT}`, { waitUntil: "networkidle" })
    await addToCart(page)
    await page.goto(`${STOREFRONT}/ca/cart`)
    await page.getByTestId("checkout-button").waitFor()
    const secondCart = await cartCookie()
    if (!secondCart || secondCart === firstCart) throw new Error("no new cart after the order")
    await shot("07-new-cart")

    // 6. Declined: back on the payment step with the reason (the cart came along: its cookie is SameSite=Strict).
    await checkoutToPayBright(page, shot, false)
    await page.click("#decline")
    await statusMessage(page, /did not approve the application/)
    await shot("08-declined")

    // 7. Left the application: back on the payment step, told nothing was charged.
    await page.getByTestId("submit-payment-button").click()
    await page.waitForURL(/step=review/)
    await page.getByTestId("submit-order-button").click()
    await page.click("#leave")
    await statusMessage(page, /You left the PayBright application\. Nothing was charged/)
    await shot("09-cancelled")
  } finally {
    await browser.close()
  }

  async function cartCookie() {
    return (await context.cookies()).find((cookie) => cookie.name === "_medusa_cart_id")?.value
  }
}

async function addToCart(page: Page) {
  const cart = page.getByTestId("nav-cart-link")
  await page.getByTestId("add-product-button").waitFor()
  const before = await cart.textContent()
  await page.getByTestId("add-product-button").click()
  for (const until = Date.now() + TIMEOUT; (await cart.textContent()) === before;) {
    if (Date.now() > until) throw new Error(`the cart still reads ${JSON.stringify(before)} after "Add to cart"`)
    await page.waitForTimeout(250)
  }
}

/** Address, delivery, PayBright on the payment step, review, then the button that leaves for PayBright. */
async function checkoutToPayBright(page: Page, shot: (name: string) => Promise<void>, screenshots: boolean) {
  await page.getByTestId("checkout-button").click()
  await page.waitForURL(/\/ca\/checkout/)
  await page.getByTestId("shipping-first-name-input").fill("Jeanne")
  await page.getByTestId("shipping-last-name-input").fill("Tremblay")
  await page.getByTestId("shipping-address-input").fill("100 King St W")
  await page.getByTestId("shipping-postal-code-input").fill("M5X 1A9")
  await page.getByTestId("shipping-city-input").fill("Toronto")
  await page.getByTestId("shipping-country-select").selectOption("ca")
  await page.getByTestId("shipping-province-input").fill("ON")
  await page.getByTestId("shipping-email-input").fill("jeanne.tremblay@example.com")
  await page.getByTestId("shipping-phone-input").fill("4165550199")
  await page.getByTestId("submit-address-button").click()
  await page.waitForURL(/step=delivery/)
  await page.getByTestId("delivery-option-radio").first().click()
  await page.getByTestId("submit-delivery-option-button").click()
  await page.waitForURL(/step=payment/)
  await page.getByText("PayBright financing", { exact: true }).click()
  await page.getByTestId("paybright-redirect-notice").waitFor()
  if (screenshots) await shot("03-checkout-payment")
  await page.getByTestId("submit-payment-button").click()
  await page.waitForURL(/step=review/)
  const button = page.getByTestId("submit-order-button")
  await button.waitFor()
  expectText(await button.textContent(), /Continue to PayBright/, "the review step's button")
  if (screenshots) await shot("04-review")
  await button.click()
}

async function statusMessage(page: Page, expected: RegExp) {
  await page.waitForURL(/\/ca\/checkout\?step=payment&paybright_status=/)
  const message = page.getByTestId("paybright-status-message")
  await message.waitFor()
  expectText(await message.textContent(), expected, "the payment step's message")
}

function expectText(actual: string | null, expected: RegExp, what: string) {
  if (!actual || !expected.test(actual)) throw new Error(`${what} reads ${JSON.stringify(actual)}, not ${expected}`)
}

main().catch((error) => {
  console.error(`✘ ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
