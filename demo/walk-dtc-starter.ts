/**
 * Follows docs/storefront/dtc-starter.md on a fresh checkout of Medusa's starter
 * (medusajs/dtc-starter) and walks a shopper's PayBright journey through it in Chromium, in English
 * and in French, then opens the starter's own admin on the order. Screenshots of each step go to
 * docs/storefront/.
 *
 *   git clone https://github.com/medusajs/dtc-starter /tmp/dtc-starter
 *   npx ts-node --transpile-only demo/walk-dtc-starter.ts /tmp/dtc-starter
 *
 * The backend (apps/backend): this plugin built, packed and installed from its tarball, the guide's
 * medusa-config.ts change and environment, `medusa db:migrate` (which runs the starter's own seed),
 * the guide's setup command, an admin user, the lender simulator from the installed package, and
 * `medusa start` on port 9000, on a fresh database (on the server DATABASE_URL names, else an
 * embedded PostgreSQL). The storefront (apps/storefront): every file of the guide written or
 * patched exactly as the guide shows it, `next build`, `next start` on port 8000. The checkout is
 * changed in place: give it a fresh one. `--keep` leaves everything running at the end.
 *
 * Fails, naming the step, as soon as a page does not show what the guide promises.
 */
import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { Cleanup } from "./cleanup"
import { demoDatabase } from "./database"
import { ensurePortFree } from "./ports"
import { runCommand, stopAll, stopProcess, tail, track } from "./processes"
import { step as setupStep } from "./progress"
import { estimatePayBrightFinancing } from "../src/storefront"
import { launchChromium } from "../test-support/browser"

const ROOT = path.resolve(__dirname, "..")
const GUIDE = path.join(ROOT, "docs/storefront/dtc-starter.md")
const SHOTS = path.join(ROOT, "docs/storefront")
/** The guide's addresses: the starter's own ports, and the simulator's default. */
const STOREFRONT = "http://localhost:8000"
const BACKEND = "http://localhost:9000"
const SIMULATOR_PORT = 4010
/** Products of the starter's seed: one option (Size) each. The sweatpants go above the maximum by five. */
const PRODUCT = "sweatshirt"
const LARGE_PRODUCT = "sweatpants"
const ADMIN = { email: "admin@dtc-starter.test", password: `walk-${randomBytes(6).toString("hex")}` }
const TIMEOUT = 120_000
/** The financing terms of the guide's medusa-config.ts: the estimate the pages must show. */
const TERMS = { months: 12, apr: "9.99", setup_fee: null, monthly_fee: null, min_amount: null }
/**
 * Order limits that fit the starter's catalogue (CA$20.55 a piece once the guide's setup has priced
 * it in CAD): one sweatshirt with shipping and tax is within them, five sweatpants are above.
 */
const LIMITS = { minOrderAmount: "15", maxOrderAmount: "100" }
/** The storefront reads PayBright's limits at most once a minute: a change shows within two. */
const LIMITS_REFRESH = 150_000
/** The starter writes money as "CA$1,031.87" (its convertToLocale); so must the kit's sentences. */
const MONEY = String.raw`CA\$[\d,]+\.\d\d`

/** What the walk is doing, for the message when it fails, and each step's time. */
let current = "start"
let currentStarted = Date.now()
const passed: { name: string; seconds: number }[] = []

async function main() {
  const args = process.argv.slice(2)
  const checkout = args.find((arg) => !arg.startsWith("--"))
  if (!checkout || !fs.existsSync(path.join(checkout, "apps/backend/package.json"))) {
    throw new Error("give the path of a fresh dtc-starter checkout: walk-dtc-starter.ts /tmp/dtc-starter [--keep]")
  }
  const cleanup = new Cleanup()
  const stop = () => void cleanup.run().then(() => process.exit(130))
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
  try {
    const started = Date.now()
    const { adminUrl, publishableKey } = await setUp(path.resolve(checkout), cleanup)
    console.log(`Both apps up in ${((Date.now() - started) / 1000).toFixed(0)}s; the journey:`)
    await walk(adminUrl)
    console.log(`\n${passed.length} steps passed:`)
    for (const { name, seconds } of passed) console.log(`  ✔ ${name.padEnd(86)} ${seconds.toFixed(1)}s`)
    if (args.includes("--keep")) {
      console.log(
        `\nStill running: ${STOREFRONT}, ${adminUrl} (${ADMIN.email} / ${ADMIN.password}), key ${publishableKey}.`
      )
      console.log("Ctrl-C stops everything and drops the database.")
      await new Promise(() => {})
    }
  } finally {
    const problems = await cleanup.run()
    for (const problem of problems) console.error(`cleanup: ${problem}`)
  }
}

/** Both apps of the starter, set up as the guide says; answers the admin's URL and the publishable key. */
async function setUp(checkout: string, cleanup: Cleanup) {
  const backend = path.join(checkout, "apps/backend")
  const storefront = path.join(checkout, "apps/storefront")
  const blocks = guideBlocks()
  for (const port of [9000, 8000, SIMULATOR_PORT]) await ensurePortFree(port, "stop what listens there first")
  cleanup.add("processes", () => stopAll())

  const pnpm = await setupStep("The starter's dependencies (pnpm install)", async (note) => {
    const { packageManager } = JSON.parse(fs.readFileSync(path.join(checkout, "package.json"), "utf8")) as {
      packageManager?: string
    }
    const pnpm = ["-y", packageManager?.startsWith("pnpm@") ? packageManager.split("+")[0] : "pnpm@10"]
    note(`${pnpm[1]}; starter ${git(checkout, "rev-parse", "--short", "HEAD")}`)
    await runCommand("npx", [...pnpm, "install"], { cwd: checkout, label: "pnpm install" })
    return (cwd: string, ...args: string[]) => runCommand("npx", [...pnpm, ...args], { cwd, label: `pnpm ${args[0]}` })
  })

  const database = await setupStep("PostgreSQL", async (note) => {
    const database = await demoDatabase()
    note(database.describe)
    return database
  })
  cleanup.add("PostgreSQL", () => database.drop())

  const tarball = await setupStep("Build and pack the plugin (npm pack)", async (note) => {
    const packDir = fs.mkdtempSync(path.join(os.tmpdir(), "paybright-pack-"))
    cleanup.add("the tarball", () => fs.rmSync(packDir, { recursive: true, force: true }))
    await runCommand(process.execPath, [path.join(ROOT, "node_modules/@medusajs/cli/cli.js"), "plugin:build"], {
      cwd: ROOT,
      label: "medusa plugin:build",
    })
    await runCommand("npm", ["pack", "--silent", "--pack-destination", packDir], { cwd: ROOT, label: "npm pack" })
    const tarball = path.join(
      packDir,
      fs.readdirSync(packDir).find((name) => name.endsWith(".tgz"))!
    )
    note(path.basename(tarball))
    return tarball
  })

  await setupStep("Backend: install the plugin, configure it (the guide's §1)", async (note) => {
    await pnpm(backend, "add", tarball)
    applyBlock(checkout, blocks, "apps/backend/medusa-config.ts")
    // The starter's .env.template, the database, fresh secrets, then the guide's lines.
    const env = fs
      .readFileSync(path.join(backend, ".env.template"), "utf8")
      .replace(/^DATABASE_URL=.*$/m, `DATABASE_URL=${database.url}`)
      .replace(/^(JWT_SECRET|COOKIE_SECRET)=.*$/gm, (_, name: string) => `${name}=${randomBytes(24).toString("hex")}`)
    const guideEnv = blockOf(blocks, "apps/backend/.env").replace(
      /^PAYBRIGHT_SETTINGS_KEY=.*$/m,
      `PAYBRIGHT_SETTINGS_KEY=${randomBytes(32).toString("base64")}`
    )
    fs.writeFileSync(path.join(backend, ".env"), `${env.trimEnd()}\n${guideEnv}`)
    note(
      `medusa-payment-paybright ${versionIn(backend, "medusa-payment-paybright")}, Medusa ${versionIn(backend, "@medusajs/medusa")}`
    )
  })
  const medusa = (...args: string[]) =>
    runCommand(path.join(backend, "node_modules/.bin/medusa"), args, { cwd: backend, label: `medusa ${args[0]}` })
  await setupStep("Backend: npx medusa db:migrate (the plugin's tables, the starter's seed)", () =>
    medusa("db:migrate")
  )
  await setupStep("Backend: the guide's setup command (Canada, CAD, PayBright)", async (note) => {
    const words = guideCommand(/npx medusa exec (\S+setup-canada\.js)((?: [\w.=-]+)*)/)
    const output = await medusa("exec", words[1], ...words[2].trim().split(" ").filter(Boolean))
    note(`${(output.match(/PayBright Canada setup:/g) ?? []).length} changes`)
  })
  await setupStep("Backend: an admin user (npx medusa user)", () =>
    medusa("user", "-e", ADMIN.email, "-p", ADMIN.password)
  )

  await setupStep("The lender simulator, from the installed package", async (note) => {
    const [, script] = guideCommand(/node (\S+simulator\/main\.js)/)
    await serve("simulator", process.execPath, [script], backend, `http://127.0.0.1:${SIMULATOR_PORT}/`, cleanup)
    note(`http://127.0.0.1:${SIMULATOR_PORT}`)
  })
  await setupStep("Backend: medusa start, in development as pnpm dev (with the admin)", async (note) => {
    await serve(
      "backend",
      path.join(backend, "node_modules/.bin/medusa"),
      ["start"],
      backend,
      `${BACKEND}/health`,
      cleanup,
      // As `pnpm dev` runs it: the admin is served without a build.
      { NODE_ENV: "development" }
    )
    note(BACKEND)
  })
  const publishableKey = await setupStep(
    "The publishable key and the order limits (Settings → PayBright)",
    async () => {
      const headers = await adminHeaders()
      const keys = (await (await fetch(`${BACKEND}/admin/api-keys?type=publishable`, { headers })).json()) as {
        api_keys: { token: string }[]
      }
      await saveSettings(LIMITS)
      publishableKeyForStorefront = keys.api_keys[0].token
      return publishableKeyForStorefront
    }
  )

  await setupStep("Storefront: the kit from the tarball, the guide's files (§2 to §10)", async (note) => {
    await pnpm(storefront, "add", tarball)
    const files = [...blocks.keys()].filter((file) => file.startsWith("apps/storefront/"))
    for (const file of files) applyBlock(checkout, blocks, file)
    note(`${files.length} files`)
  })
  await setupStep("Storefront: next build", async (note) => {
    await pnpm(storefront, "build")
    note(`Next.js ${versionIn(storefront, "next")}, React ${versionIn(storefront, "react")}`)
  })
  await setupStep("Storefront: next start", async (note) => {
    await serve(
      "storefront",
      path.join(storefront, "node_modules/.bin/next"),
      ["start", "-p", "8000"],
      storefront,
      `${STOREFRONT}/ca`,
      cleanup
    )
    note(STOREFRONT)
  })
  return { adminUrl: `${BACKEND}/app`, publishableKey }

  /** The guide's block for `file` (its `.env` lines with the key the backend made). */
  function blockOf(all: Map<string, Block>, file: string) {
    const block = all.get(file)
    if (!block) throw new Error(`the guide has no block for ${file}`)
    return block.text
  }
  function applyBlock(root: string, all: Map<string, Block>, file: string) {
    const block = all.get(file)!
    const target = path.join(root, file)
    if (file.endsWith(".env.local")) {
      fs.writeFileSync(
        target,
        block.text.replace(/pk_…/, () => publishableKeyForStorefront)
      )
    } else if (block.lang === "diff") {
      fs.writeFileSync(target, patch(fs.readFileSync(target, "utf8"), block.text, file))
    } else {
      fs.mkdirSync(path.dirname(target), { recursive: true })
      fs.writeFileSync(target, block.text)
    }
  }
}

/** Set once the backend answers: the storefront's .env.local needs it. */
let publishableKeyForStorefront = ""

type Block = { lang: string; text: string }

/** The guide's code blocks that name a file (```ts file=apps/…), by file. */
function guideBlocks(): Map<string, Block> {
  const blocks = new Map<string, Block>()
  for (const [, lang, file, text] of fs
    .readFileSync(GUIDE, "utf8")
    .matchAll(/^```(\w+) file=(\S+)\n([\s\S]*?)^```$/gm)) {
    blocks.set(file, { lang, text })
  }
  return blocks
}

/** A command of the guide's, found by `pattern`. */
function guideCommand(pattern: RegExp): RegExpMatchArray {
  const match = fs.readFileSync(GUIDE, "utf8").match(pattern)
  if (!match) throw new Error(`the guide has no command matching ${pattern}`)
  return match
}

/**
 * Applies one of the guide's diffs: its hunks, separated by "…" lines, each found in the file after
 * the previous one by its context and removed lines (compared without their indentation).
 */
function patch(source: string, diff: string, file: string): string {
  const lines = source.split("\n")
  let cursor = 0
  for (const hunk of diff.trimEnd().split(/^ +…$/m)) {
    // A blank line inside a hunk is a blank context line.
    const rows = hunk.replace(/^\n+|\n+$/g, "").split("\n")
    const old = rows.filter((row) => !row.startsWith("+")).map((row) => row.slice(1).trim())
    const at = lines.findIndex(
      (_, index) => index >= cursor && old.every((text, offset) => lines[index + offset]?.trim() === text)
    )
    if (at < 0) throw new Error(`${file}: the guide's lines are not in the starter's file:\n${hunk.trim()}`)
    const replaced: string[] = []
    let offset = 0
    for (const row of rows) {
      if (row.startsWith("+")) replaced.push(row.slice(1))
      else if (row.startsWith("-")) offset++
      else replaced.push(lines[at + offset++])
    }
    lines.splice(at, old.length, ...replaced)
    cursor = at + replaced.length
  }
  return lines.join("\n")
}

/** Starts a server in the background (its output kept for a failure) and waits for `ready` to answer. */
async function serve(
  name: string,
  command: string,
  args: string[],
  cwd: string,
  ready: string,
  cleanup: Cleanup,
  env: NodeJS.ProcessEnv = {}
) {
  let output = ""
  const child = track(command, args, {
    cwd,
    env: { ...process.env, NODE_ENV: undefined, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  })
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  cleanup.add(name, () => stopProcess(child))
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}:\n${tail(output)}`)))
  )
  exited.catch(() => {})
  for (const until = Date.now() + 180_000; Date.now() < until;) {
    const ok = await fetch(ready, { signal: AbortSignal.timeout(5000) }).then(
      (response) => response.status < 500,
      () => false
    )
    if (ok) return
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 500))])
  }
  throw new Error(`${name} did not answer ${ready} in 180s:\n${tail(output)}`)
}

function git(cwd: string, ...args: string[]) {
  return execFileSync("git", args, { cwd, encoding: "utf8" }).trim()
}

function versionIn(app: string, name: string) {
  return (
    JSON.parse(fs.readFileSync(path.join(app, "node_modules", name, "package.json"), "utf8")) as { version: string }
  ).version
}

/** The shopper's journey, then the merchant's admin on the order. */
async function walk(adminUrl: string) {
  const browser = await launchChromium()
  const newShopper = async (locale?: string) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    if (locale) {
      // What the starter's language menu stores (updateLocale).
      await context.addCookies([{ name: "_medusa_locale", value: locale, url: STOREFRONT, sameSite: "Strict" }])
    }
    const page = await context.newPage()
    page.setDefaultTimeout(TIMEOUT)
    return { context, page }
  }
  const shot = async (page: Page, name: string) => {
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })
  }

  try {
    const { context, page } = await newShopper()

    step("the product page's estimate")
    await openProduct(page, PRODUCT)
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
    const orderId = /\/order\/(order_[^/]+)\//.exec(page.url())![1]
    await page.getByTestId("payment-method").waitFor()
    expectText(await page.getByTestId("payment-method").textContent(), /^PayBright financing$/)
    // The loan is authorized, not paid, until the order is captured.
    expectText(await page.getByTestId("payment-amount").textContent(), new RegExp(`^${MONEY} authorized at `))
    await shot(page, "06-order-confirmed")
    if ((await cartCookie(context)) !== undefined) {
      throw new Error("the completed cart is still in the _medusa_cart_id cookie")
    }

    step("a new cart after the order")
    await openProduct(page, PRODUCT)
    await addToCart(page)
    await page.goto(`${STOREFRONT}/ca/cart`)
    await page.getByTestId("checkout-button").waitFor()
    const secondCart = await cartCookie(context)
    if (!secondCart || secondCart === firstCart) throw new Error("no new cart after the order")
    await shot(page, "07-new-cart")

    // Declined: back on the payment step with the reason (the cart came along: its cookie is
    // SameSite=Strict). PayBright is the region's only method: the sentence does not send the
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
    await inTheAdmin(await newShopper(), shot, adminUrl, orderId)
    step("done")
  } finally {
    await browser.close()
    await saveSettings({ promotionalWidgetKey: null }).catch(() => {})
  }
}

/** The merchant opens the order in the starter's own admin: PayBright's payment, authorized. */
async function inTheAdmin(
  { context, page }: { context: BrowserContext; page: Page },
  shot: (page: Page, name: string) => Promise<void>,
  adminUrl: string,
  orderId: string
) {
  step("the starter's admin: log in")
  await page.goto(`${adminUrl}/login`)
  await page.locator('input[name="email"]').fill(ADMIN.email)
  await page.locator('input[name="password"]').fill(ADMIN.password)
  await page.locator('button[type="submit"]').click()
  await page.waitForURL((url) => !url.pathname.endsWith("/login"))
  step("the starter's admin: the order, with the PayBright panel")
  await page.goto(`${adminUrl}/orders/${orderId}`)
  const panel = page.locator("#paybright-order-panel")
  const broken = page.getByText("An error occurred", { exact: true })
  await waitUntil(async () => {
    if (await broken.isVisible())
      throw new Error(`the admin's order page broke: ${await page.locator("body").innerText()}`)
    return panel.isVisible()
  }, "the PayBright panel on the order")
  // Authorized at PayBright, captured at shipment.
  expectText(await panel.locator("#paybright-status").textContent(), /^Awaiting capture/)
  await page.waitForLoadState("networkidle")
  await shot(page, "14-admin-order")
  await context.close()
}

/** A product page, hydrated, with its options chosen: "Add to cart" is then wired up and enabled. */
async function openProduct(page: Page, handle: string) {
  await page.goto(`${STOREFRONT}/ca/products/${handle}`, { waitUntil: "networkidle" })
  for (const group of await page.getByTestId("product-options").all()) {
    await group.getByTestId("option-button").first().click()
  }
}

/** A cart above the maximum, in a region where PayBright is the only method: the payment step says why. */
async function outsideTheLimits(
  { context, page }: { context: BrowserContext; page: Page },
  shot: (page: Page, name: string) => Promise<void>
) {
  step("outside the limits: a cart above the maximum")
  await openProduct(page, LARGE_PRODUCT)
  await addToCart(page)
  await page.goto(`${STOREFRONT}/ca/cart`, { waitUntil: "networkidle" })
  const total = page.getByTestId("cart-total")
  const before = await total.getAttribute("data-value")
  await untilPosted(page, "/cart", () => page.getByTestId("product-select-button").selectOption("5"), "the quantity")
  // As after "Add to cart": now and then the page keeps the old total, which a page loaded afterwards shows.
  let reloaded = Date.now()
  await waitUntil(async () => {
    if ((await total.getAttribute("data-value")) !== before) return true
    if (Date.now() - reloaded > 10_000) {
      await page.reload({ waitUntil: "networkidle" })
      reloaded = Date.now()
    }
    return false
  }, "the cart's quantity to change")
  if (await page.getByTestId("paybright-financing").count()) {
    throw new Error("the cart shows an estimate for a total above the maximum")
  }
  await checkout(page)

  step("outside the limits: the payment step says why, with no stray 0")
  const expected = "PayBright financing is available for orders from CA$15.00 to CA$100.00."
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
  await openProduct(page, PRODUCT)
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
      await openProduct(page, PRODUCT)
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
  const expected = estimatePayBrightFinancing(total!, TERMS).monthly
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
  const saved = await fetch(`${BACKEND}/admin/paybright/settings/pp_paybright_paybright`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(await adminHeaders()) },
    body: JSON.stringify(values),
  })
  if (!saved.ok) throw new Error(`saving ${JSON.stringify(values)} answered ${saved.status}: ${await saved.text()}`)
}

async function adminHeaders() {
  const login = await fetch(`${BACKEND}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  })
  if (!login.ok) throw new Error(`the admin login at ${BACKEND} answered ${login.status}`)
  const { token } = (await login.json()) as { token: string }
  return { authorization: `Bearer ${token}` }
}

async function cartCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === "_medusa_cart_id")?.value
}

/** Starts the next step of the journey: the one before it passed. */
function step(name: string) {
  if (current !== "start") passed.push({ name: current, seconds: (Date.now() - currentStarted) / 1000 })
  current = name
  currentStarted = Date.now()
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
  void stopAll()
  console.error(`✘ ${current}: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
