/**
 * Walks a shopper's PayBright journey through Medusa's starter storefront (medusajs/dtc-starter,
 * changed as docs/storefront/dtc-starter.md says) in Chromium, in English and in French, and saves
 * a screenshot of each step into docs/storefront/. Run against
 * `npm run demo -- --serve --port 9000 --storefront-url http://localhost:8000` and the starter on
 * port 8000:
 *
 *   npx ts-node --transpile-only scripts/walk-dtc-starter.ts [storefront URL] [product handle] [backend URL]
 *
 * It sets the demo's order limits first (100.00 to 5,000.00, as a merchant does on Settings →
 * PayBright), and for the last step saves a widget public key, then removes it.
 *
 * Fails, naming the step, as soon as a page does not show what the guide promises.
 */
import path from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { ADMIN_LOGIN } from "../demo/store"
import { estimatePayBrightFinancing } from "../src/storefront"
import { launchChromium } from "../test-support/browser"

const STOREFRONT = process.argv[2] ?? "http://localhost:8000"
const PRODUCT = process.argv[3] ?? "sofa"
const BACKEND = process.argv[4] ?? "http://localhost:9000"
/** The demo's treadmill: five of them are above the order limits' maximum. */
const LARGE_PRODUCT = "treadmill"
const SHOTS = path.resolve(__dirname, "../docs/storefront")
const TIMEOUT = 120_000
/** The demo's financing terms (npm run demo): the estimate the pages must show. */
const DEMO_TERMS = { months: 12, apr: "9.99", setup_fee: null, monthly_fee: null, min_amount: "100" }
const LIMITS = { minOrderAmount: "100", maxOrderAmount: "5000" }
/** The storefront reads PayBright's limits at most once a minute: a change shows within two. */
const LIMITS_REFRESH = 150_000
/** The starter writes money as "CA$1,031.87" (its convertToLocale); so must the kit's sentences. */
const MONEY = String.raw`CA\$[\d,]+\.\d\d`

/** What the walk is doing, for the message when it fails. */
let current = "start"

async function main() {
  step("set the demo's order limits (Settings → PayBright)")
  await saveSettings(LIMITS)

  const browser = await launchChromium()
  const newShopper = async (locale?: string) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    if (locale) {
      // What the starter's language menu stores (updateLocale): the menu is shown only when the
      // backend lists locales, which the demo does not.
      await context.addCookies([{ name: "_medusa_locale", value: locale, url: STOREFRONT, sameSite: "Strict" }])
    }
    const page = await context.newPage()
    page.setDefaultTimeout(TIMEOUT)
    return { context, page }
  }
  const shot = async (page: Page, name: string) => {
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })
    console.log(`✔ ${name}`)
  }

  try {
    const { context, page } = await newShopper()

    step("the product page's estimate")
    // networkidle: the page is hydrated, so "Add to cart" is wired up when clicked.
    await page.goto(`${STOREFRONT}/ca/products/${PRODUCT}`, { waitUntil: "networkidle" })
    const financing = page.getByTestId("paybright-financing")
    await financing.waitFor()
    const productEstimate = expectText(
      await financing.textContent(),
      new RegExp(
        `^or from (${MONEY})/month with PayBright` +
          String.raw`Estimate: 12 monthly payments at 9\.99% APR, subject to approval\. PayBright sets your actual terms\. Before tax and shipping\.$`
      )
    )[1]
    await shot(page, "01-product-financing")

    step("the cart's estimate, on the cart's total")
    await addToCart(page)
    await page.goto(`${STOREFRONT}/ca/cart`)
    await page.getByTestId("checkout-button").waitFor()
    await expectEstimateOnTotal(page)
    await shot(page, "02-cart")
    const firstCart = await cartCookie(context)

    await checkout(page)
    step("the checkout's estimate, on the total with tax and shipping")
    const checkoutEstimate = await expectEstimateOnTotal(page)
    if (checkoutEstimate === productEstimate) {
      throw new Error(`the checkout's estimate (${checkoutEstimate}) is the product's: not on the cart's total`)
    }
    await toPayBright(page, async (name) => shot(page, name))

    step("PayBright's application (the simulator)")
    await page.waitForSelector("#approve")
    await shot(page, "05-paybright-application")
    await page.click("#approve")

    step("the order confirmation")
    await page.waitForURL(/\/ca\/order\/order_[^/]+\/confirmed$/)
    await page.getByTestId("payment-method").waitFor()
    expectText(await page.getByTestId("payment-method").textContent(), /^PayBright financing$/)
    // The loan is authorized, not paid, until the order is captured.
    expectText(await page.getByTestId("payment-amount").textContent(), new RegExp(`^${MONEY} authorized at `))
    await shot(page, "06-order-confirmed")
    if ((await cartCookie(context)) !== undefined) {
      throw new Error("the completed cart is still in the _medusa_cart_id cookie")
    }

    step("a new cart after the order")
    await page.goto(`${STOREFRONT}/ca/products/${PRODUCT}`, { waitUntil: "networkidle" })
    await addToCart(page)
    await page.goto(`${STOREFRONT}/ca/cart`)
    await page.getByTestId("checkout-button").waitFor()
    const secondCart = await cartCookie(context)
    if (!secondCart || secondCart === firstCart) throw new Error("no new cart after the order")
    await shot(page, "07-new-cart")

    // Declined: back on the payment step with the reason (the cart came along: its cookie is
    // SameSite=Strict). PayBright is the demo's only method: the sentence does not send the
    // shopper to another one.
    await checkout(page)
    await toPayBright(page)
    step("declined: the payment step's message")
    await page.click("#decline")
    await statusMessage(
      page,
      /^PayBright did not approve the application, and this store has no other way to pay for this cart\. Please contact the store\.$/
    )
    await shot(page, "08-declined")

    step("the message is shown once: the review step and the way back do not bring it back")
    await page.getByTestId("submit-payment-button").click()
    await page.waitForURL(/step=review/)
    if (page.url().includes("paybright_status")) throw new Error(`the review step's address keeps it: ${page.url()}`)
    await page.goBack()
    await page.waitForURL(/step=payment/)
    await page.getByTestId("submit-payment-button").waitFor()
    if (await page.getByTestId("paybright-status-message").isVisible()) {
      throw new Error("back on the payment step, the old message is shown again")
    }

    step("left the application: the payment step's message")
    await page.getByTestId("submit-payment-button").click()
    await page.waitForURL(/step=review/)
    await page.getByTestId("submit-order-button").click()
    await page.click("#leave")
    await statusMessage(
      page,
      /^You left the PayBright application\. Nothing was charged; continue to PayBright again when you are ready\.$/
    )
    await shot(page, "09-cancelled")
    await context.close()

    await outsideTheLimits(await newShopper(), shot)
    await inFrench(await newShopper("fr-CA"), shot)
    await withTheWidget(await newShopper(), shot)
  } finally {
    await browser.close()
    await saveSettings({ promotionalWidgetKey: null }).catch(() => {})
  }
}

/** A cart above the maximum, in a region where PayBright is the only method: the payment step says why. */
async function outsideTheLimits(
  { context, page }: { context: BrowserContext; page: Page },
  shot: (page: Page, name: string) => Promise<void>
) {
  step("outside the limits: a cart above the maximum")
  await page.goto(`${STOREFRONT}/ca/products/${LARGE_PRODUCT}`, { waitUntil: "networkidle" })
  await addToCart(page)
  await page.goto(`${STOREFRONT}/ca/cart`, { waitUntil: "networkidle" })
  const total = page.getByTestId("cart-total")
  const before = await total.getAttribute("data-value")
  await untilPosted(page, "/cart", () => page.getByTestId("product-select-button").selectOption("5"), "the quantity")
  await waitUntil(async () => (await total.getAttribute("data-value")) !== before, "the cart's quantity to change")
  if (await page.getByTestId("paybright-financing").count()) {
    throw new Error("the cart shows an estimate for a total above the maximum")
  }
  await checkout(page)

  step("outside the limits: the payment step says why, with no stray 0")
  const expected = "PayBright financing is available for orders from CA$100.00 to CA$5,000.00."
  const unavailable = page.getByTestId("paybright-unavailable-message")
  // The storefront may still hold limits read before the walk set them.
  await waitUntil(
    async () => (await unavailable.isVisible()) || (await page.reload(), false),
    "the limits' sentence",
    LIMITS_REFRESH
  )
  expectText(await unavailable.textContent(), new RegExp(`^${escape(expected)}$`))
  // The payment step's open part: the sentence, then the button, and nothing in between.
  const open = page.getByTestId("submit-payment-button").locator("xpath=..")
  expectText(await open.textContent(), new RegExp(`^${escape(expected)}Continue to review$`))
  if (await page.getByText("PayBright financing", { exact: true }).count()) {
    throw new Error("PayBright is offered for a cart above the maximum")
  }
  await shot(page, "11-outside-limits")
  await context.close()
}

/** The shopper's locale is French: the kit's sentences are too, the starter's money as it writes it. */
async function inFrench(
  { context, page }: { context: BrowserContext; page: Page },
  shot: (page: Page, name: string) => Promise<void>
) {
  step("in French: the product page's estimate")
  await page.goto(`${STOREFRONT}/ca/products/${PRODUCT}`, { waitUntil: "networkidle" })
  const financing = page.getByTestId("paybright-financing")
  await financing.waitFor()
  expectText(
    (await financing.textContent())!.replace(/\s/g, " "),
    new RegExp(
      `^ou à partir de ${MONEY}/mois avec PayBright` +
        "Estimation : 12 paiements mensuels au TAP de 9,99 %, sous réserve d’approbation\\. " +
        "PayBright fixe vos conditions réelles\\. Avant taxes et livraison\\.$"
    )
  )
  await shot(page, "12-product-financing-fr")

  await addToCart(page)
  await page.goto(`${STOREFRONT}/ca/cart`)
  await page.getByTestId("checkout-button").waitFor()
  await checkout(page)
  step("in French: the payment step's notice")
  await page.getByText("PayBright financing", { exact: true }).click()
  expectText(await page.getByTestId("paybright-redirect-notice").textContent(), /^Vous serez dirigé vers PayBright/)
  await page.getByTestId("submit-payment-button").click()
  await page.waitForURL(/step=review/)
  step("in French: the review step's button")
  const button = page.getByTestId("submit-order-button")
  await button.waitFor()
  expectText(await button.textContent(), /^Continuer avec PayBright$/)
  await button.click()
  step("in French, declined: the payment step's message")
  await page.click("#decline")
  await statusMessage(
    page,
    /^PayBright n’a pas approuvé la demande, et cette boutique n’offre aucun autre mode de paiement pour ce panier\. Veuillez communiquer avec la boutique\.$/
  )
  await shot(page, "13-declined-fr")
  await context.close()
}

/** With PayBright's widget public key saved, the product page loads the widget (the simulator's stand-in). */
async function withTheWidget(
  { context, page }: { context: BrowserContext; page: Page },
  shot: (page: Page, name: string) => Promise<void>
) {
  step("with a widget public key: the widget on the product page")
  await saveSettings({ promotionalWidgetKey: "pk_walk_widget" })
  const widget = page.getByTestId("paybright-widget")
  await waitUntil(
    async () => {
      await page.goto(`${STOREFRONT}/ca/products/${PRODUCT}`, { waitUntil: "networkidle" })
      return widget.isVisible()
    },
    "the widget",
    LIMITS_REFRESH
  )
  await waitUntil(async () => ((await widget.textContent()) ?? "").trim() !== "", "the widget's content")
  await shot(page, "10-product-widget")
  await context.close()
}

async function addToCart(page: Page) {
  const cart = page.getByTestId("nav-cart-link")
  const button = page.getByTestId("add-product-button")
  await button.waitFor()
  const before = await cart.textContent()
  await untilPosted(page, "/products/", () => button.click(), '"Add to cart"')
  // The starter refreshes its header with the action's answer, but now and then not on a new
  // cart: a page loaded afterwards shows it.
  let reloaded = Date.now()
  await waitUntil(
    async () => {
      if ((await cart.textContent()) !== before) return true
      if (Date.now() - reloaded > 10_000) {
        await page.reload({ waitUntil: "networkidle" })
        reloaded = Date.now()
      }
      return false
    },
    `the cart to change from ${JSON.stringify(before)}`
  )
}

/**
 * Does what a shopper does until the page posts the starter's server action: on a page React has
 * not hydrated yet, a click or a choice does nothing.
 */
async function untilPosted(page: Page, path: string, act: () => Promise<unknown>, what: string) {
  for (let attempt = 1; ; attempt++) {
    const posted = page
      .waitForRequest((request) => request.method() === "POST" && new URL(request.url()).pathname.includes(path), {
        timeout: 15_000,
      })
      .catch(() => undefined)
    await act()
    const request = await posted
    if (request) {
      const status = (await request.response())?.status()
      if (status === undefined || status >= 400) throw new Error(`${what} answered ${status ?? "nothing"}`)
      return
    }
    if (attempt === 4) throw new Error(`${what} posts nothing after ${attempt} tries`)
  }
}

/** From the cart: address, delivery, on to the payment step. */
async function checkout(page: Page) {
  step("checkout: address and delivery")
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
  await page.getByTestId("submit-payment-button").waitFor()
}

/** PayBright on the payment step, review, then the button that leaves for PayBright. */
async function toPayBright(page: Page, shot?: (name: string) => Promise<void>) {
  step("the payment step: PayBright and its notice")
  await page.getByText("PayBright financing", { exact: true }).click()
  await page.getByTestId("paybright-redirect-notice").waitFor()
  await shot?.("03-checkout-payment")
  await page.getByTestId("submit-payment-button").click()
  await page.waitForURL(/step=review/)
  step("the review step: its sentence and the button")
  const button = page.getByTestId("submit-order-button")
  await button.waitFor()
  expectText(await button.textContent(), /^Continue to PayBright$/)
  await page.getByText(/^By continuing to PayBright, you confirm that you have read/).waitFor()
  await shot?.("04-review")
  await button.click()
}

/** The estimate beside the totals is the one on the cart's total; its monthly amount. */
async function expectEstimateOnTotal(page: Page) {
  const total = await page.getByTestId("cart-total").getAttribute("data-value")
  const financing = page.getByTestId("paybright-financing")
  await financing.waitFor()
  const text = await financing.textContent()
  const monthly = expectText(text, new RegExp(`^or from (${MONEY})/month with PayBright`))[1]
  const expected = estimatePayBrightFinancing(total!, DEMO_TERMS).monthly
  if (monthly.replace(/[^\d.]/g, "") !== expected) {
    throw new Error(`the estimate is ${monthly} a month, not ${expected} (on the total, ${total})`)
  }
  if (text!.includes("Before tax and shipping"))
    throw new Error(`the estimate on the total reads ${JSON.stringify(text)}`)
  return monthly
}

/** Back on the payment step with a sentence: shown, and the status taken out of the address. */
async function statusMessage(page: Page, expected: RegExp) {
  await page.waitForURL(/\/ca\/checkout\?step=payment&paybright_status=/)
  const message = page.getByTestId("paybright-status-message")
  await message.waitFor()
  expectText(await message.textContent(), expected)
  await page.waitForURL(
    (url) => url.searchParams.get("step") === "payment" && !url.searchParams.has("paybright_status")
  )
}

/** Saves PayBright settings through the admin API, as Settings → PayBright does. */
async function saveSettings(values: Record<string, string | null>) {
  const login = await fetch(`${BACKEND}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN_LOGIN),
  })
  if (!login.ok) throw new Error(`the admin login at ${BACKEND} answered ${login.status}`)
  const { token } = (await login.json()) as { token: string }
  const saved = await fetch(`${BACKEND}/admin/paybright/settings/pp_paybright_paybright`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(values),
  })
  if (!saved.ok) throw new Error(`saving ${JSON.stringify(values)} answered ${saved.status}: ${await saved.text()}`)
}

async function cartCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === "_medusa_cart_id")?.value
}

function step(name: string) {
  current = name
}

async function waitUntil(done: () => Promise<boolean>, what: string, timeout = TIMEOUT) {
  for (const until = Date.now() + timeout; !(await done());) {
    if (Date.now() > until) throw new Error(`still waiting for ${what} after ${timeout / 1000}s`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

function expectText(actual: string | null, expected: RegExp): RegExpExecArray {
  const match = actual === null ? null : expected.exec(actual)
  if (!match) throw new Error(`the page reads ${JSON.stringify(actual)}, not ${expected}`)
  return match
}

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}

main().catch((error) => {
  console.error(`✘ ${current}: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
