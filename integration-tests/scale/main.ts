import fs from "node:fs"
import path from "node:path"
import Medusa from "@medusajs/js-sdk"
import { Cleanup } from "../../demo/cleanup"
import { interrupt, step } from "../../demo/progress"
import { inPool } from "../../test-support/pool"
import { applyAtPayBright, cartReadyToPay, createPaymentSession, returnToStore } from "../../test-support/storefront"
import { medusaBooks, orderForSession } from "./books"
import {
  approvalsOrderedOrReported,
  callbacksAnswered,
  everyCheckoutRan,
  ledgersAgree,
  nothingLoggedAsError,
  oneCapturePerShipment,
  ordersPlaced,
  type Check,
  type CheckoutRun,
} from "./checks"
import { approvalsPlacedByStoreRetry, errorLines } from "./logs"
import { merchantConflictsRetried, paymentOf, refundOnceCaptured, shipInParcels } from "../../test-support/merchant"
import { processesOf, productsOfCheckout, startTopology, type Topology } from "./topology"

const CHECKOUTS = Number(process.env.SCALE_CHECKOUTS) || 200
const CONCURRENCY = Number(process.env.SCALE_CONCURRENCY) || 50
const CALLBACK_COPIES = 2
const REFUND = 10
const PROVIDER_ID = "pp_paybright_paybright"

/**
 * `npm run test:scale`: the production topology (one Medusa server, two workers, Redis event bus,
 * workflow engine and locks, shared PostgreSQL), driven over HTTP as shoppers, the lender and a
 * merchant would: CHECKOUTS checkouts at CONCURRENCY, each callback delivered twice and out of
 * order with the shopper's return, every order shipped in one or two parcels, a tenth refunded.
 * Ends with `N passed, N failed`.
 *
 * SCALE_CHECKOUTS and SCALE_CONCURRENCY (default 200 and 50) change the load, for a quicker try;
 * SCALE_HOLD=1 keeps everything running after the checks, until Ctrl-C, to look at the store.
 */
async function main() {
  const cleanup = new Cleanup()
  const started = Date.now()
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      interrupt()
      void cleanup.run().then(() => finish([{ name: `interrupted (${signal})`, problems: [signal] }], started))
    })
  }
  console.log("PayBright on Medusa's production topology\n")
  let checks: Check[]
  try {
    const topology = await startTopology(cleanup)
    checks = await exercise(topology)
  } catch (error) {
    checks = [{ name: "the suite ran", problems: [error instanceof Error ? error.message : String(error)] }]
  }
  if (process.env.SCALE_HOLD) {
    console.log("SCALE_HOLD: everything keeps running until Ctrl-C")
    await new Promise(() => {})
  }
  await step("Stop everything and remove the store's data", async (note) => {
    const problems = await cleanup.run()
    if (problems.length) note(`problems: ${problems.join("; ")}`)
  }).catch(() => {})
  finish(checks, started)
}

async function exercise(topology: Topology): Promise<Check[]> {
  const { store, simulator, server } = topology
  const shop = new Medusa({ baseUrl: server.url, publishableKey: store.seeded.publishableKey })
  const admin = new Medusa({ baseUrl: server.url, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } })
  await admin.auth.login("user", "emailpass", store.admin)

  const runs = await step(
    `${CHECKOUTS} checkouts at concurrency ${CONCURRENCY}: shipped in 1 or 2 parcels, a tenth refunded`,
    async (note) => {
      let done = 0
      const outcomes = await inPool(CHECKOUTS, CONCURRENCY, async (index) => {
        const run: CheckoutRun = { index, shipments: 0 }
        try {
          await checkout(run, shop, admin, topology)
        } catch (error) {
          run.error = error instanceof Error ? error.message : String(error)
        }
        note(`${++done} done`)
        return run
      })
      return outcomes.map((outcome) => (outcome.ok ? outcome.value : { index: -1, shipments: 0, error: "lost" }))
    }
  )

  await step("Wait for the workers' captures and the lender's callbacks", async (note) => {
    const shipments = runs.reduce((total, run) => total + run.shipments, 0)
    // Long enough for the lender's last retry (5, 60 s apart) and the store's own every-minute retry.
    const deadline = Date.now() + 420_000
    while (Date.now() < deadline) {
      const captures = simulator.contracts().reduce((total, contract) => total + contract.captures.length, 0)
      const pendingCallbacks = callbacksAnswered(simulator.callbacks(), simulator.contracts(), CALLBACK_COPIES)
      note(`${captures}/${shipments} captures`)
      if (captures >= shipments && pendingCallbacks.problems.length === 0) break
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
    // A capture made twice would show up a moment later: give the workers that moment.
    await new Promise((resolve) => setTimeout(resolve, 3000))
  })

  const books = await medusaBooks(admin)
  const contracts = simulator.contracts()
  const reported = await reportedApprovals(admin)
  const logTexts = processesOf(topology).map(({ role, process }) => ({
    role,
    text: fs.readFileSync(process.logFile, "utf8"),
  }))
  const logs = logTexts.map(({ role, text }) => ({ role, errors: errorLines(text) }))
  keepLogs(topology)
  const selfDelivered = logTexts.reduce((total, { text }) => total + approvalsPlacedByStoreRetry(text), 0)
  console.log(`orders placed by the store's own retry of an approval: ${selfDelivered}`)
  console.log(`merchant actions pressed again after Medusa answered 409: ${merchantConflictsRetried()}`)
  return [
    everyCheckoutRan(runs),
    ordersPlaced(books, CHECKOUTS),
    oneCapturePerShipment(runs, contracts),
    nothingLoggedAsError(logs),
    approvalsOrderedOrReported(contracts, books, reported),
    ledgersAgree(contracts, books),
    callbacksAnswered(simulator.callbacks(), contracts, CALLBACK_COPIES),
  ]
}

/**
 * One shopper and the merchant after them: a cart of two products, PayBright, approval at the
 * lender, back to the store at a random moment among the lender's two callbacks (0 and 300 ms),
 * then shipped in one parcel (even checkouts) or two (odd ones), and every tenth refunded.
 */
async function checkout(run: CheckoutRun, shop: Medusa, admin: Medusa, { store }: Topology) {
  const { seeded } = store
  run.phase = "cart"
  const email = `shopper-${run.index}@example.com`
  const { paymentCollectionId } = await cartReadyToPay(shop, seeded, productsOfCheckout(run.index), email)
  run.phase = "payment session"
  const session = await createPaymentSession(shop, paymentCollectionId, PROVIDER_ID)
  run.sessionId = session.id
  run.phase = "application at the lender"
  const returnUrl = await applyAtPayBright(session)
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 600))
  run.phase = "return to the store"
  // Without an order on return, the lender's retries or the store's own place it within minutes.
  run.orderId = (await returnToStore(returnUrl)) ?? (await orderForSession(admin, session.id, 300_000))
  run.phase = "shipping"
  run.shipments = await shipInParcels(admin, seeded, run.orderId, run.index % 2 ? 2 : 1)
  if (run.index % 10 === 0) {
    run.phase = "refund"
    await refundOnceCaptured(admin, await paymentOf(admin, run.orderId), run.shipments, REFUND)
    run.refunded = REFUND.toFixed(2)
  }
  run.phase = undefined
}

/** Contracts the store reports as approved without an order (every page of the admin's list). */
async function reportedApprovals(admin: Medusa): Promise<Set<string>> {
  const reported = new Set<string>()
  for (let offset = 0; ; offset += 100) {
    const { approvals, count } = await admin.client.fetch<{ approvals: { contract: string }[]; count: number }>(
      "/admin/paybright/approvals",
      { query: { state: "orphaned", limit: 100, offset } }
    )
    for (const approval of approvals) reported.add(approval.contract)
    if (offset + 100 >= count) return reported
  }
}

/** The processes' logs outlive the store folder, for reading after a failure (CI keeps .tmp/). */
function keepLogs(topology: Topology) {
  const folder = path.join(__dirname, "../../.tmp/scale-logs")
  fs.rmSync(folder, { recursive: true, force: true })
  fs.mkdirSync(folder, { recursive: true })
  for (const { process } of processesOf(topology)) {
    fs.copyFileSync(process.logFile, path.join(folder, path.basename(process.logFile)))
  }
  console.log(`(the processes' logs are kept in ${path.relative(process.cwd(), folder)})`)
}

function finish(checks: Check[], started: number): never {
  console.log("")
  for (const check of checks) {
    console.log(`${check.problems.length ? "✖" : "✔"} ${check.name}`)
    for (const problem of check.problems.slice(0, 10)) console.log(`    ${problem}`)
    if (check.problems.length > 10) console.log(`    … and ${check.problems.length - 10} more`)
  }
  const failed = checks.filter((check) => check.problems.length).length
  const seconds = Math.round((Date.now() - started) / 1000)
  console.log(`\nnpm run test:scale took ${Math.floor(seconds / 60)}m ${seconds % 60}s`)
  console.log(`${checks.length - failed} passed, ${failed} failed`)
  process.exit(failed ? 1 : 0)
}

void main()
