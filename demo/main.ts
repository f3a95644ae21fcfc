import path from "node:path"
import { startSimulator, SIMULATOR_TEST_ACCOUNT } from "../src/lenders/paybright/simulator"
import { startFakeStripe } from "../test-support/fake-stripe"
import { freePort } from "../test-support/free-port"
import { startCheckoutPage } from "./checkout-page/server"
import { Cleanup } from "./cleanup"
import { runJourney } from "./journey"
import { ledgerTable } from "./ledger-table"
import { MedusaServer } from "./medusa-process"
import { ensurePortFree, PortInUseError } from "./ports"
import { interrupt, step, StepError } from "./progress"
import { preparePackedStore } from "./packed-store"

const USAGE = `npm run demo [-- options]
  --serve               keep everything running: Medusa admin, simulator, and a checkout page to buy on
  --storefront-url URL  with --serve: send shoppers back to your storefront at URL (e.g. Medusa's starter,
                        http://localhost:8000) instead of the demo's page, and let it through CORS
  --port N              the store's port (default: a free one)
  --mode virtual_card   paid through the contract's virtual card, charged on a fake Stripe
                        (default in_store: the lender's in-store capture)`

type Options = { serve: boolean; port?: number; mode: "in_store" | "virtual_card"; storefrontUrl?: string }

/** The financing estimate's terms, as a merchant sets them in medusa-config.ts (or on Settings → PayBright). */
const DEMO_FINANCING = { financingMonths: 12, financingApr: "9.99", financingMinAmount: "100" }

/**
 * `npm run demo`: a real Medusa store with PayBright, end to end, on this machine, with nothing to
 * configure: PostgreSQL, the lender (simulated), the plugin as its npm package, then a shopper's
 * and a merchant's journey over HTTP, and both sets of books side by side.
 */
async function main() {
  const options = parseArguments(process.argv.slice(2))
  const cleanup = new Cleanup()
  let server: MedusaServer | undefined
  const started = Date.now()

  let stopping = false
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return void process.stdout.write("Still stopping…\n")
    stopping = true
    interrupt()
    process.stdout.write(`\nStopping (${signal})…\n`)
    await tearDown(cleanup)
    process.exit(130)
  }
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop(signal))

  console.log("PayBright for Medusa: demo store\n")
  try {
    // Ports first: a busy one is reported before anything is started.
    const port = options.port ?? (await freePort())
    await ensurePortFree(port, `npm run demo -- ${options.serve ? "--serve " : ""}--port ${port + 1}`)
    const pagePort = options.serve && !options.storefrontUrl ? await freePort() : undefined

    const simulator = await step("PayBright simulator", async (note) => {
      // "ask": the application page with its buttons, clicked by the journey or by a person.
      const simulator = await startSimulator({ decision: "ask", callback: { retryIntervalMs: 1000 } })
      note(simulator.url)
      return simulator
    })
    cleanup.add("the simulator", () => simulator.close())

    const stripe =
      options.mode === "virtual_card"
        ? await step("Fake Stripe (the merchant's card processor)", async (note) => {
            // Wired to the simulator as the card network is to the lender: charges reach its ledger.
            const stripe = await startFakeStripe({ onCardTransaction: (event) => simulator.cardTransaction(event) })
            note(stripe.url)
            return stripe
          })
        : undefined
    if (stripe) cleanup.add("the fake Stripe", () => stripe.close())

    const {
      storeDir,
      env,
      seeded,
      admin: adminUser,
    } = await preparePackedStore(
      cleanup,
      {
        port,
        simulatorUrl: simulator.url,
        ...SIMULATOR_TEST_ACCOUNT,
        // Without --serve no browser comes back; the journey only reads the redirect's path.
        storefrontUrl: options.storefrontUrl ?? (pagePort ? `http://localhost:${pagePort}` : "http://localhost:8000"),
        paybrightOptions: DEMO_FINANCING,
        captureMode: options.mode,
        cardProcessor: stripe
          ? {
              type: "stripe",
              options: { secretKey: stripe.secretKey, host: stripe.host, port: stripe.port, protocol: "http" },
            }
          : undefined,
        admin: options.serve,
      },
      {}
    )
    server = new MedusaServer(storeDir, env, `http://localhost:${port}`)
    cleanup.add("Medusa", () => server?.stop())
    await step(options.serve ? "Start Medusa (with its admin)" : "Start Medusa", async (note) => {
      await server!.start()
      note(server!.url)
    })

    if (options.serve) {
      const page = pagePort
        ? await step("Demo checkout page", async (note) => {
            const page = await startCheckoutPage(
              pagePort,
              {
                storeUrl: server!.url,
                publishableKey: seeded.publishableKey,
                regionId: seeded.regionId,
                shippingOptionId: seeded.shippingOptionId,
              },
              storeDir
            )
            note(page.url)
            return page
          })
        : undefined
      if (page) cleanup.add("the checkout page", () => page.close())
      console.log(`
Everything is running (${options.mode === "virtual_card" ? "virtual card" : "in-store capture"} mode), ready in ${elapsed(started)}:
${page ? `  Shop with PayBright:   ${page.url}\n` : `  Your storefront:       ${options.storefrontUrl} (shoppers come back to /ca/paybright/return)\n`}  Medusa backend URL:    ${server.url}
  Publishable API key:   ${seeded.publishableKey}   (sees the demo's products; region Canada, CAD)
  Medusa admin:          ${server.url}/app   login ${adminUser.email} / ${adminUser.password}
  PayBright settings:    ${server.url}/app/settings/paybright
  PayBright simulator:   ${simulator.url}
  Store folder and log:  ${path.relative(process.cwd(), server.logFile)}
The admin is served in development mode: its first page takes a while to load.
Ctrl-C stops everything and removes the demo's data.`)
      await new Promise(() => {})
    }

    console.log("\nThe journey, over HTTP with @medusajs/js-sdk:\n")
    const result = await runJourney({ storeUrl: server.url, seeded, admin: adminUser, simulator })
    const table = ledgerTable(result)
    console.log(table.text)
    await tearDown(cleanup)
    console.log(`\nDone in ${elapsed(started)}.`)
    process.exit(table.agree ? 0 : 1)
  } catch (error) {
    if (stopping) return
    if (error instanceof PortInUseError) {
      // Nothing was started yet.
      console.error(`Cannot start: ${error.message}`)
      process.exit(2)
    }
    const failed = error instanceof StepError ? error.step : "The demo"
    const cause = error instanceof StepError ? error.cause : error
    console.error(`\n${failed} failed: ${cause instanceof Error ? cause.message : String(cause)}`)
    // The store's own words usually say more than an HTTP error does.
    if (server && !(cause instanceof Error && cause.message.includes("last log lines"))) {
      console.error(
        `\nLast lines of the store's log (${path.relative(process.cwd(), server.logFile)}):\n${server.logTail(40)}`
      )
    }
    await tearDown(cleanup)
    process.exit(1)
  }
}

async function tearDown(cleanup: Cleanup) {
  await step("Stop everything and remove the demo's data", async (note) => {
    const problems = await cleanup.run()
    if (problems.length) note(`problems: ${problems.join("; ")}`)
  }).catch(() => {})
}

function parseArguments(args: string[]): Options {
  const options: Options = { serve: false, mode: "in_store" }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    const value = () => {
      const next = args[++i]
      if (next === undefined) usage(`${arg} needs a value`)
      return next
    }
    if (arg === "--serve") options.serve = true
    else if (arg === "--port") {
      const port = Number(value())
      if (!Number.isInteger(port) || port < 1 || port > 65535) usage(`--port must be a port number, not ${args[i]}`)
      options.port = port
    } else if (arg === "--mode") {
      const mode = value()
      if (mode !== "in_store" && mode !== "virtual_card") usage(`--mode must be in_store or virtual_card, not ${mode}`)
      options.mode = mode as Options["mode"]
    } else if (arg === "--storefront-url") {
      const url = value().replace(/\/+$/, "")
      if (!/^https?:\/\/[^/]+$/.test(url))
        usage(`--storefront-url must be an origin such as http://localhost:8000, not ${url}`)
      options.storefrontUrl = url
    } else if (arg === "--help" || arg === "-h") {
      console.log(USAGE)
      process.exit(0)
    } else usage(`unknown option ${arg}`)
  }
  if (options.storefrontUrl && !options.serve) usage("--storefront-url needs --serve: without it no shopper comes back")
  return options
}

function usage(problem: string): never {
  console.error(`${problem}\n\n${USAGE}`)
  process.exit(2)
}

function elapsed(started: number) {
  return `${((Date.now() - started) / 1000).toFixed(0)}s`
}

void main()
