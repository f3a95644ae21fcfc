import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { Cleanup } from "../demo/cleanup"
import { interrupt, step } from "../demo/progress"
import { startBenchStore } from "./bench-store"
import { CONTENDERS, type Contender } from "./contenders"
import { table } from "./measure"
import { microBenchmarks } from "./micro"
import { callsTable, figuresTable, machine, pooled, targets, type Figures } from "./report"
import {
  clients,
  CONCURRENCY_LEVELS,
  measureLatencies,
  measureThroughput,
  warmUp,
  type BenchSizes,
  type Clients,
  type ContenderFigures,
} from "./store-bench"

const RESULTS = path.join(__dirname, "results.md")
/** Rounds per invocation: each target is reported as the median of these. */
const ROUNDS = 3
const ANALYSIS = /<!-- analysis:start -->[\s\S]*<!-- analysis:end -->/

/**
 * `npm run bench`: PayBright (in-store and virtual card) against the floor (Medusa's system
 * provider: no remote call) and the peer (Medusa's own Stripe provider on a fake Stripe), in one
 * run, on one Medusa, one database and this machine; then the micro-benchmarks. Prints the table
 * and writes bench/results.md. BENCH_QUICK=1 measures fewer samples, for trying the bench out.
 */
async function main() {
  const quick = Boolean(process.env.BENCH_QUICK)
  const sizes: BenchSizes = quick
    ? { samples: 10, warmUp: 2, checkouts: { 1: 3, 10: 10, 50: 20 } }
    : { samples: 40, warmUp: 5, checkouts: { 1: 10, 10: 30, 50: 100 } }
  const cleanup = new Cleanup()
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      interrupt()
      void cleanup.run().then(() => process.exit(130))
    })
  }
  const started = new Date()
  const loadBefore = os.loadavg()
  try {
    const micro = await step("Micro-benchmarks", () => microBenchmarks())
    const bench = await startBenchStore(cleanup)
    const client = await clients(bench)
    for (const contender of CONTENDERS) await warmUp(client, contender, sizes.warmUp)
    // Three rounds, the contenders' order reversed in the middle one, so that a change in the
    // machine's load falls on all of them; each target is the median of its three rounds.
    const rounds: Figures[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...CONTENDERS].reverse() : CONTENDERS
      rounds.push(await step(`Round ${round + 1} of ${ROUNDS}`, () => measureRound(client, order, sizes)))
    }
    const report = render(rounds, micro, started, machine(loadBefore, os.loadavg()), sizes)
    if (!quick) fs.writeFileSync(RESULTS, keepAnalysis(report))
    console.log(`\n${report}\n${quick ? "(BENCH_QUICK: bench/results.md left as it was)" : `Written to ${RESULTS}`}`)
  } catch (error) {
    console.error(`\nThe bench failed: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  } finally {
    await cleanup.run()
  }
}

/** Every contender's latencies, then each concurrency level for every contender in turn. */
async function measureRound(client: Clients, order: readonly Contender[], sizes: BenchSizes): Promise<Figures> {
  const figures = {} as Figures
  for (const contender of order) {
    const latencies = await measureLatencies(client, contender, sizes.samples)
    figures[contender.key] = { ...latencies, checkoutsPerMinute: {} } satisfies ContenderFigures
  }
  for (const level of CONCURRENCY_LEVELS) {
    for (const contender of order) {
      figures[contender.key].checkoutsPerMinute[level] = await measureThroughput(
        client,
        contender,
        level,
        sizes.checkouts[level]
      )
      // Medusa handles the peer's webhooks 5 s after they arrive: let them land before the next provider runs.
      await new Promise((resolve) => setTimeout(resolve, 6000))
    }
  }
  return figures
}

function render(
  rounds: Figures[],
  micro: Awaited<ReturnType<typeof microBenchmarks>>,
  started: Date,
  machineText: string,
  sizes: BenchSizes
) {
  const labels = Object.fromEntries(CONTENDERS.map((contender) => [contender.key, contender.label])) as Record<
    Contender["key"],
    string
  >
  const figures = pooled(rounds)
  const verdicts = targets(rounds)
  return `# Benchmark results

Written by \`npm run bench\` on ${started.toISOString()}.
Machine: ${machineText}.

One Medusa 2.21 process (\`medusa start\`), one PostgreSQL, the plugin installed from its npm tarball. The lender
(simulator) and Stripe (fake server) answer at once, so every figure is Medusa's and the providers' own cost.
${ROUNDS} rounds, one after the other, the providers' order reversed in the middle one. Each round: latencies,
${sizes.samples} samples per provider, one request at a time; then checkouts per minute, ${checkoutCounts(sizes)}
full checkouts (cart, payment session, approval, order) per provider. The table below pools the rounds' latency
samples and takes the median round's checkouts per minute; each target is the median of its ${ROUNDS} rounds, all three
shown. Ratios are PayBright's figure divided by the floor's or the peer's: below 1 is faster for latencies and calls,
above 1 is better for checkouts per minute.

## PayBright against the floor and the peer

${figuresTable(figures)}

How each provider goes from approval to order: PayBright, on half its samples the lender's signed callback (timed
until it answers that the order is placed), then the shopper's return, and on the other half both at once, as in life,
timed until the shopper's return answers with the order ("shopper lands on the order"); Stripe, the \`payment_intent.amount_capturable_updated\` webhook,
timed until the cart is completed; system, the storefront's cart completion. The bench sets the payment module's
\`webhook_delay\` to 1 ms, but Medusa 2.21.2's webhook route reads it from a property the payment module does not
have, so every Stripe webhook still waits Medusa's default 5 s: the row "Stripe: storefront completion" times the
peer's other way to the order (Stripe.js confirms, then the storefront completes the cart, as Medusa's Next.js
starter does), on half of the peer's samples; that completion is also the peer's "shopper lands on the order", and
the system provider's completion is the floor's. Checkouts per minute go the same ways, except the peer's: its
storefront completes the cart while the webhook arrives too.

Database statements are PostgreSQL's own count (\`pg_stat_statements\`) of what the store ran, read once it is quiet
again, so that the events and subscribers a request sets off count with it. For approval to order they cover
PayBright's callback and the shopper's return, the peer's storefront completion (its webhook path is timed by watching
the cart, whose reads would count), and the system provider's completion.

## Remote calls per order

${callsTable(figures, labels)}

## Targets (reported, never asserted)

${verdicts.map((verdict) => `- ${verdict.met ? "met" : "**missed**"}: ${verdict.target}: ${verdict.measured}`).join("\n")}

<!-- analysis:start -->
<!-- analysis:end -->

## Micro-benchmarks

${table(micro)}
`
}

function checkoutCounts(sizes: BenchSizes) {
  return Object.entries(sizes.checkouts)
    .map(([concurrency, count]) => `${count} at concurrency ${concurrency}`)
    .join(", ")
}

/** The hand-written analysis of the last results (why a target is missed) survives a new run. */
function keepAnalysis(report: string) {
  const previous = fs.existsSync(RESULTS) ? ANALYSIS.exec(fs.readFileSync(RESULTS, "utf8"))?.[0] : undefined
  return previous ? report.replace(ANALYSIS, previous) : report
}

void main()
