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
  noReturnFailed,
  noSecretLogged,
  nothingUnhandled,
  everyShipmentCaptured,
  nothingDoubled,
  NOT_REFUNDED_CAPTURE_IN_DOUBT,
  ordersPlaced,
  type Check,
  type CheckoutRun,
  type PaymentRecords,
} from "./checks"
import { approvalsPlacedByStoreRetry, errorLines, secretsIn, unhandledLines } from "./logs"
import { capturesOf, merchantConflictsRetried, paymentOf, refund, shipInParcels } from "../../test-support/merchant"
import { outagesRetried, throughOutages } from "../../test-support/outage"
import { processesOf, productsOfCheckout, startTopology, type Topology } from "./topology"
import { faultSchedule, runSchedule, type InjectedFault } from "./faults"
import { recordsOf, takingOffered, unconcluded } from "./records"
import { printTable } from "./table"
import { paymentLockHolder } from "./lock-holder"
import { keepUnplacedEvidence } from "./unplaced-evidence"
import type { PayBrightMoneyRecord } from "../../src/lib/admin-types"
import type { CallbackAttempt } from "../../src/lenders/paybright/simulator"

const CHECKOUTS = Number(process.env.SCALE_CHECKOUTS) || 200
const CONCURRENCY = Number(process.env.SCALE_CONCURRENCY) || 50
const CALLBACK_COPIES = 2
const REFUND = 10
const PROVIDER_ID = "pp_paybright_paybright"
/**
 * How long the suite waits for every order to settle: long enough for the lender's last retry (5,
 * 60 s apart), the stale-pending threshold (120 s) and the reconciliation job's next minute.
 */
const SETTLE_MINUTES = 10

/**
 * `npm run test:scale`: the production topology (one Medusa server, two workers, Redis event bus,
 * workflow engine and locks, shared PostgreSQL), driven over HTTP as shoppers, the lender and a
 * merchant would: CHECKOUTS checkouts at CONCURRENCY, each callback delivered twice and out of
 * order with the shopper's return, every order shipped in one or two parcels, a tenth refunded,
 * while the day's faults (./faults.ts) kill processes, restart Redis, cut database connections
 * and slow the lender. Ends with the table of ./table.ts and `N passed, N failed`.
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

  const schedule = faultSchedule({
    server,
    workers: topology.workers,
    redis: topology.redis,
    simulator,
    databaseUrl: String(store.env.DATABASE_URL),
    lenderTimeoutMs: topology.lenderTimeoutMs,
  })
  console.log("Faults, in seconds after the checkouts begin:")
  for (const fault of schedule) console.log(`  ${String(fault.atSeconds).padStart(4)} s  ${fault.what}`)
  console.log("")

  const checkoutsBegan = Date.now()
  const faultsOver = runSchedule(schedule, checkoutsBegan)
  const runs = await step(
    `${CHECKOUTS} checkouts at concurrency ${CONCURRENCY}: shipped in 1 or 2 parcels, a tenth refunded`,
    async (note) => {
      let done = 0
      const outcomes = await inPool(CHECKOUTS, CONCURRENCY, async (index) => {
        const run: CheckoutRun = { index, shipments: 0, returnErrors: [] }
        try {
          await checkout(run, shop, admin, topology)
        } catch (error) {
          run.error = error instanceof Error ? error.message : String(error)
        }
        note(`${++done} done`)
        return run
      })
      return outcomes.map((outcome) =>
        outcome.ok ? outcome.value : { index: -1, shipments: 0, returnErrors: [], error: "lost" }
      )
    }
  )
  const injected = await step("Wait for the last fault to end (every process back)", () => faultsOver)
  for (const fault of injected) {
    console.log(`  ${String(fault.atSeconds).padStart(4)} s  ${fault.what}: ${fault.error ?? fault.outcome}`)
  }

  const records = await step("Wait for the captures, the lender's callbacks and the plugin's jobs", (note) =>
    settled(topology, admin, runs, note)
  )

  const books = await throughOutages(() => medusaBooks(admin))
  const contracts = simulator.contracts()
  const reported = await reportedApprovals(admin)
  const logTexts = processesOf(topology).map(({ role, process }) => ({
    role,
    text: fs.readFileSync(process.logFile, "utf8"),
  }))
  const secrets = {
    "the lender's API token": store.settings.apiToken,
    "the lender's Basic credential": Buffer.from(`${store.settings.apiKey}:${store.settings.apiToken}`).toString(
      "base64"
    ),
    JWT_SECRET: String(store.env.JWT_SECRET),
    COOKIE_SECRET: String(store.env.COOKIE_SECRET),
    PAYBRIGHT_SETTINGS_KEY: String(store.env.PAYBRIGHT_SETTINGS_KEY),
  }
  const logs = logTexts.map(({ role, text }) => ({
    role,
    unhandled: unhandledLines(text),
    secrets: secretsIn(text, secrets),
    errors: errorLines(text).length,
  }))
  const kept = keepLogs(topology)
  const ordered = new Set(books.map((entry) => entry.gatewayReference))
  const evidence = await keepUnplacedEvidence(
    String(store.env.DATABASE_URL),
    contracts.filter((contract) => !ordered.has(contract.gateway_reference)),
    kept
  )
  if (evidence) {
    console.log(
      `(the approval rows, money records, payment sessions and cart orders of every approval without an order: ${path.relative(process.cwd(), evidence)})`
    )
  }
  const selfDelivered = logTexts.reduce((total, { text }) => total + approvalsPlacedByStoreRetry(text), 0)
  console.log(`orders placed by the store's own retry of an approval: ${selfDelivered}`)
  console.log(`merchant actions pressed again after Medusa answered 409: ${merchantConflictsRetried()}`)
  console.log(`shopper and merchant requests made again after the store did not answer: ${outagesRetried()}`)
  const unanswered = simulator.callbacks().filter((attempt) => attempt.status !== 200)
  console.log(
    `callback attempts the store did not answer with 200, tried again by the lender: ${unanswered.length} (${tally(
      unanswered.map(
        (attempt) => `${attempt.status ?? attempt.error}, copy ${attempt.copy}, attempt ${attempt.attempt}`
      )
    )})`
  )
  console.log(`${redeliveries(simulator.callbacks())}`)
  console.log(
    `error lines logged (the faults' own, read in .tmp/scale-logs): ${logs.map((log) => `${log.role} ${log.errors}`).join(", ")}`
  )
  const doubled = nothingDoubled(runs, contracts)
  const lost = approvalsOrderedOrReported(contracts, books, reported)
  const checks = [
    everyFaultInjected(injected),
    everyCheckoutRan(runs),
    ordersPlaced(books, CHECKOUTS),
    everyShipmentCaptured(runs, contracts, books, records),
    doubled,
    lost,
    ledgersAgree(contracts, books, records),
    callbacksAnswered(simulator.callbacks(), contracts, CALLBACK_COPIES),
    noReturnFailed(runs),
    nothingUnhandled(logs),
    noSecretLogged(logs),
  ]
  printTable({
    injected,
    runs,
    books,
    contracts,
    reported,
    records,
    doubles: doubled.count,
    lost: lost.count,
    started: checkoutsBegan,
  })
  return checks
}

/** "a × 3; b × 1": how often each text occurs, most frequent first. */
/**
 * How the lender's redeliveries fared: each delivery (a contract's copy) that the store did not
 * answer with 200 is tried again; the callback answers 200 only once the result is decided (an
 * order, a decline, an orphan), so a redelivery answered 200 placed or settled it then.
 */
function redeliveries(attempts: CallbackAttempt[]): string {
  const deliveries = new Map<string, CallbackAttempt[]>()
  for (const attempt of attempts.filter((attempt) => attempt.kind === "application")) {
    const key = `${attempt.reference} ${attempt.copy}`
    deliveries.set(key, [...(deliveries.get(key) ?? []), attempt])
  }
  const redelivered = [...deliveries.values()]
    .map((tries) => tries.sort((a, b) => a.attempt - b.attempt))
    .filter((tries) => tries[0].status !== 200 && tries.length > 1)
  const atFirst = redelivered.filter((tries) => tries[1].status === 200).length
  const later = redelivered.filter((tries) => tries[1].status !== 200)
  return (
    `callback deliveries redelivered by the lender: ${redelivered.length}, decided at the first redelivery: ${atFirst}, ` +
    `later or never: ${later.length}${later.length ? ` (first redelivery answered ${tally(later.map((tries) => String(tries[1].status ?? tries[1].error)))})` : ""}`
  )
}

function tally(texts: string[]): string {
  const counts = new Map<string, number>()
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1)
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([text, count]) => `${text} × ${count}`)
    .join("; ")
}

function everyFaultInjected(injected: InjectedFault[]): Check {
  return {
    name: `every fault injected and every process back after it (${injected.length})`,
    problems: injected.filter((fault) => fault.error).map((fault) => `${fault.what}: ${fault.error}`),
  }
}

/**
 * Waits until the lender's callbacks are answered or its retries are over, every order is fully
 * captured in Medusa or has a capture in doubt, and no capture or refund is still pending (the
 * reconciliation job takes what a killed worker left pending into doubt). The merchant presses "retry" on a refused
 * capture, as the admin offers, unless a capture of the payment is in doubt: that one is resolved
 * first, by a person. Returns each order's money records.
 */
async function settled(
  { simulator, redis }: Topology,
  admin: Medusa,
  runs: CheckoutRun[],
  note: (text: string) => void
): Promise<PaymentRecords> {
  const deadline = Date.now() + SETTLE_MINUTES * 60_000
  const paid = runs.filter((run) => run.paymentId && !run.error)
  for (;;) {
    const records: PaymentRecords = new Map()
    const open: { run: CheckoutRun; why: string; rows: PayBrightMoneyRecord[] }[] = []
    for (const run of paid) {
      const rows = await recordsOf(admin, run.paymentId!)
      records.set(run.paymentId!, rows)
      const captures = unconcluded(rows, "capture")
      const retriable = await retryRefusedCaptures(admin, run.paymentId!, rows)
      const { fullyCaptured } = await capturesOf(admin, run.paymentId!)
      const awaitingPerson = captures.inDoubt.length > 0
      const pending = captures.pending.length + unconcluded(rows, "refund").pending.length
      const why = pending
        ? `${pending} pending`
        : retriable.length
          ? `${retriable.length} refused capture retried`
          : fullyCaptured || awaitingPerson
            ? undefined
            : "not fully captured"
      if (why) open.push({ run, why, rows })
    }
    const callbacks = callbacksAnswered(simulator.callbacks(), simulator.contracts(), CALLBACK_COPIES)
    // A few left are named, with what holds them, so that one that never settles can be explained.
    const named =
      open.length && open.length <= 5
        ? `: ${(await Promise.all(open.map((left) => whatHolds(left, redis.url)))).join(", ")}`
        : ""
    note(
      `${open.length} orders with a capture or refund under way${named}, ${callbacks.problems.length} callbacks unanswered`
    )
    const settledAll = open.length === 0 && callbacks.problems.length === 0
    if (!settledAll && Date.now() > deadline) {
      // Said outside the step's note, which keeps only its last words: what never settled, and why.
      const held = await Promise.all(open.slice(0, 10).map((left) => whatHolds(left, redis.url)))
      console.log(`still under way after ${SETTLE_MINUTES} minutes: ${held.join(", ") || "none"}`)
    }
    if (settledAll || Date.now() > deadline) {
      // A capture made twice would show up a moment later: give the workers that moment.
      await new Promise((resolve) => setTimeout(resolve, 3000))
      return records
    }
    await new Promise((resolve) => setTimeout(resolve, 10_000))
  }
}

/** An order still under way, with its payment's lock holder and the last refused capture's message. */
async function whatHolds(
  { run, why, rows }: { run: CheckoutRun; why: string; rows: PayBrightMoneyRecord[] },
  redisUrl: string
): Promise<string> {
  const refused = unconcluded(rows, "capture").refused.at(-1)
  const holder = await paymentLockHolder(redisUrl, run.paymentId!)
  return `order ${run.orderId} (${why}; ${holder}${refused ? `; refused: ${refused.message}` : ""})`
}

/**
 * The merchant takes the money of each refused capture of a payment as the admin offers: "retry"
 * on the refusal, or Medusa's own "Capture payment" when that button would capture it (pressed
 * once for the payment, however many refusals it makes good). Nothing while a capture of the
 * payment is in doubt: that one holds every new attempt back until a person resolves it. Returns
 * the refused captures whose money was asked for again.
 */
async function retryRefusedCaptures(admin: Medusa, paymentId: string, rows: PayBrightMoneyRecord[]) {
  const captures = unconcluded(rows, "capture")
  const retriable = captures.inDoubt.length ? [] : captures.refused
  const routes = retriable.map((refused) =>
    takingOffered(refused) === "capture_in_medusa"
      ? `/admin/payments/${paymentId}/capture`
      : `/admin/paybright/captures/${refused.id}/retry`
  )
  for (const route of new Set(routes)) {
    // A retry Medusa or the plugin refuses stays listed; the next look presses it again.
    await throughOutages(() => admin.client.fetch(route, { method: "POST", body: {} })).catch(() => {})
  }
  return retriable
}

/**
 * One shopper and the merchant after them: a cart of two products, PayBright, approval at the
 * lender, back to the store at a random moment among the lender's two callbacks (0 and 300 ms),
 * then shipped in one parcel (even checkouts) or two (odd ones), and every tenth refunded. When
 * the store does not answer, the shopper starts the cart again, or reloads the return page; the
 * merchant looks before pressing again.
 */
async function checkout(run: CheckoutRun, shop: Medusa, admin: Medusa, { store }: Topology) {
  const { seeded } = store
  const email = `shopper-${run.index}@example.com`
  run.phase = "cart and payment session"
  const session = await throughOutages(async () => {
    const { paymentCollectionId } = await cartReadyToPay(shop, seeded, productsOfCheckout(run.index), email)
    return createPaymentSession(shop, paymentCollectionId, PROVIDER_ID)
  })
  run.sessionId = session.id
  run.phase = "application at the lender"
  const returnUrl = await applyAtPayBright(session)
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 600))
  run.phase = "return to the store"
  const returned = await throughOutages(() =>
    returnToStore(returnUrl).catch((error) => {
      const status = (error as { status?: number }).status
      if (status && status >= 500) run.returnErrors.push(status)
      throw error
    })
  )
  // Without an order on return, the lender's retries or the store's own place it within minutes.
  run.orderId = returned ?? (await orderForSession(admin, session.id, 420_000))
  run.paymentId = await paymentOf(admin, run.orderId)
  run.phase = "shipping"
  run.shipments = await shipInParcels(admin, seeded, run.orderId, run.index % 2 ? 2 : 1)
  if (run.index % 10 === 0) {
    run.phase = "refund"
    run.refundOutcome = await refundOnceConcluded(admin, run.paymentId)
    if (!run.refundOutcome) run.refunded = REFUND.toFixed(2)
  }
  run.phase = undefined
}

/**
 * Refunds REFUND once every parcel's capture is made. A capture in doubt is the merchant's to
 * resolve first, so nothing is refunded then; a refund that ends in doubt or refused is in sight
 * on the order. Returns why nothing (or something uncertain) was refunded, or undefined.
 */
async function refundOnceConcluded(admin: Medusa, paymentId: string): Promise<string | undefined> {
  const deadline = Date.now() + 600_000
  const captureInDoubt = async () => unconcluded(await recordsOf(admin, paymentId), "capture").inDoubt.length > 0
  // Every parcel's capture concluded: Medusa counts the whole payment, or one is in doubt.
  while (!(await capturesOf(admin, paymentId)).fullyCaptured) {
    if (await captureInDoubt()) return NOT_REFUNDED_CAPTURE_IN_DOUBT
    await retryRefusedCaptures(admin, paymentId, await recordsOf(admin, paymentId))
    if (Date.now() > deadline) throw new Error(`payment ${paymentId}: not fully captured within 10 minutes`)
    await new Promise((resolve) => setTimeout(resolve, 5000))
  }
  if (await captureInDoubt()) return NOT_REFUNDED_CAPTURE_IN_DOUBT
  try {
    await refund(admin, paymentId, REFUND)
    return undefined
  } catch (error) {
    const refunds = unconcluded(await recordsOf(admin, paymentId), "refund")
    if (refunds.inDoubt.length) return "refund in doubt"
    if (refunds.refused.length) return "refund refused"
    throw error
  }
}

/** Contracts the store reports as approved without an order (every page of the admin's list). */
async function reportedApprovals(admin: Medusa): Promise<Set<string>> {
  const reported = new Set<string>()
  for (let offset = 0; ; offset += 100) {
    const { approvals, count } = await throughOutages(() =>
      admin.client.fetch<{ approvals: { contract: string }[]; count: number }>("/admin/paybright/approvals", {
        query: { state: "orphaned", limit: 100, offset },
      })
    )
    for (const approval of approvals) reported.add(approval.contract)
    if (offset + 100 >= count) return reported
  }
}

/** The processes' logs outlive the store folder, for reading after a failure (CI keeps .tmp/); answers their folder. */
function keepLogs(topology: Topology): string {
  const folder = path.join(__dirname, "../../.tmp/scale-logs")
  fs.rmSync(folder, { recursive: true, force: true })
  fs.mkdirSync(folder, { recursive: true })
  for (const { process } of processesOf(topology)) {
    fs.copyFileSync(process.logFile, path.join(folder, path.basename(process.logFile)))
  }
  console.log(`(the processes' logs are kept in ${path.relative(process.cwd(), folder)})`)
  return folder
}

function finish(checks: Check[], started: number): never {
  console.log("")
  for (const check of checks) {
    console.log(`${check.problems.length ? "✖" : "✔"} ${check.name}`)
    // "  why: " as npm test writes a failure's reasons, so that .ci/run repeats them at its end.
    for (const problem of check.problems.slice(0, 10)) console.log(`  why: ${problem}`)
    if (check.problems.length > 10) console.log(`  why: … and ${check.problems.length - 10} more`)
  }
  const failed = checks.filter((check) => check.problems.length).length
  const seconds = Math.round((Date.now() - started) / 1000)
  console.log(`\nnpm run test:scale took ${Math.floor(seconds / 60)}m ${seconds % 60}s`)
  console.log(`${checks.length - failed} passed, ${failed} failed`)
  process.exit(failed ? 1 : 0)
}

void main()
