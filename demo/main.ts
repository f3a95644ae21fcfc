import fs from "node:fs"
import { startSimulator, SIMULATOR_TEST_ACCOUNT, type Simulator } from "../src/simulator"
import { demoDatabase, type DemoDatabase } from "./database"
import { startFakeStripe } from "../test-support/fake-stripe"
import { startCheckoutPage } from "./checkout-page/server"
import { runJourney } from "./journey"
import { ledgerTable } from "./ledger-table"
import { MedusaServer, tail } from "./medusa-process"
import { step, StepError } from "./progress"
import { createAdmin, createStoreFolder, installBuiltPlugin, migrate, seed, storeEnv, writeStoreConfig, type StoreSettings } from "./store"

/**
 * `npm run demo`: a real Medusa store with PayBright, end to end, on this machine.
 *   --serve                 keep everything running, with a checkout page a person can use
 *   --port N                the store's port with --serve (default 9000)
 *   --mode virtual_card     settle through the contract's virtual card, charged on a fake Stripe
 */
type Cleanup = () => Promise<void> | void

async function main() {
  const args = process.argv.slice(2)
  const serve = args.includes("--serve")
  const portArgument = args.includes("--port") ? Number(args[args.indexOf("--port") + 1]) : undefined
  const mode = args.includes("--mode") ? args[args.indexOf("--mode") + 1] : "in_store"
  if (mode !== "in_store" && mode !== "virtual_card") {
    console.error(`--mode must be in_store or virtual_card, not ${mode}`)
    process.exit(2)
  }
  const cleanups: Cleanup[] = []
  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) {
      await Promise.resolve(cleanup()).catch(() => {})
    }
    cleanups.length = 0
  }
  process.on("SIGINT", async () => {
    process.stdout.write("\nStopping…\n")
    await teardown()
    process.exit(130)
  })

  const started = Date.now()
  console.log("PayBright for Medusa: demo store\n")
  try {
    const { freePort } = await import("../scripts/embedded-postgres.mjs")
    const port = serve ? (portArgument ?? 9000) : await freePort()
    await ensurePortFree(port)
    const pagePort = serve ? await freePort() : undefined

    const database: DemoDatabase = await step("PostgreSQL", async (note) => {
      const database = await demoDatabase()
      note(database.describe)
      return database
    })
    cleanups.push(() => database.drop())

    const simulator: Simulator = await step("PayBright simulator", async (note) => {
      const simulator = await startSimulator({ callback: { retryIntervalMs: 1000 } })
      note(simulator.url)
      return simulator
    })
    cleanups.push(() => simulator.close())

    const stripe = mode === "virtual_card" ? await step("Fake Stripe (the merchant's card processor)", async (note) => {
      // Wired to the simulator as the card network is to the lender: charges reach its ledger.
      const stripe = await startFakeStripe({ onCardTransaction: (event) => simulator.cardTransaction(event) })
      note(stripe.url)
      return stripe
    }) : undefined
    if (stripe) cleanups.push(() => stripe.close())

    const storeDir = createStoreFolder()
    cleanups.push(() => fs.rmSync(storeDir, { recursive: true, force: true }))
    await step("Build and pack the plugin, install it into a new store", async (note) => {
      const { version, tarball } = installBuiltPlugin(storeDir)
      note(`${tarball}, medusa-payment-paybright@${version}`)
    })

    const settings: StoreSettings = {
      databaseUrl: database.url,
      port,
      simulatorUrl: simulator.url,
      ...SIMULATOR_TEST_ACCOUNT,
      storefrontUrl: pagePort ? `http://127.0.0.1:${pagePort}` : "http://localhost:8000",
      captureMode: mode,
      cardProcessor: stripe
        ? { type: "stripe", options: { secretKey: stripe.secretKey, host: stripe.host, port: stripe.port, protocol: "http" } }
        : undefined,
      admin: serve,
    }
    writeStoreConfig(storeDir, settings)
    const env = storeEnv(settings)
    await step("Run Medusa's migrations", () => migrate(storeDir, env))
    const seeded = await step("Seed a Canadian store (CAD, PayBright, products, shipping)", async (note) => {
      const seeded = await seed(storeDir, env)
      note(`${seeded.variants.length} products`)
      return seeded
    })
    const adminUser = await step("Create an admin user", () => createAdmin(storeDir, env))
    const server = new MedusaServer(storeDir, env, `http://localhost:${port}`)
    cleanups.push(() => server.stop())
    await step("Start Medusa", async (note) => {
      await server.start()
      note(server.url)
    })

    if (serve) {
      const page = await step("Demo checkout page", async (note) => {
        const page = await startCheckoutPage(pagePort!, () => ({
          storeUrl: server.url,
          publishableKey: seeded.publishableKey,
          regionId: seeded.regionId,
          shippingOptionId: seeded.shippingOptionId,
        }))
        note(page.url)
        return page
      })
      cleanups.push(() => page.close())
      console.log(`
Everything is running (${mode === "virtual_card" ? "virtual card" : "in-store capture"} mode):
  Shop with PayBright:   ${page.url}
  Medusa admin:          ${server.url}/app   login ${adminUser.email} / ${adminUser.password}
  PayBright simulator:   ${simulator.url}
Ctrl-C stops everything and removes the demo's data.`)
      await new Promise(() => {})
    }

    console.log("\nThe journey, over HTTP with @medusajs/js-sdk:\n")
    const result = await runJourney({ storeUrl: server.url, seeded, admin: adminUser, simulator }).catch((error) => {
      // The store's own words usually say more than the HTTP error does.
      console.error(`\nLast lines of the store's log (${server.logFile}):\n${tail(fs.readFileSync(server.logFile, "utf8"))}`)
      throw error
    })
    const table = ledgerTable(result)
    console.log(table.text)
    console.log(`\nDone in ${((Date.now() - started) / 1000).toFixed(0)}s.`)
    await teardown()
    process.exit(table.agree ? 0 : 1)
  } catch (error) {
    const step = error instanceof StepError ? error.step : "the demo"
    const cause = error instanceof StepError ? error.cause : error
    console.error(`\n${step} failed: ${cause instanceof Error ? cause.message : String(cause)}`)
    await teardown()
    process.exit(1)
  }
}

async function ensurePortFree(port: number) {
  const net = await import("node:net")
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer()
    probe.once("error", () =>
      reject(new Error(`port ${port} is already in use: stop what runs there, or pass another one with --port`))
    )
    probe.listen(port, () => probe.close(() => resolve()))
  })
}

void main()
