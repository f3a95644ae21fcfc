import { startSimulator, SIMULATOR_TEST_ACCOUNT, type Simulator } from "../src/lenders/paybright/simulator"
import { startFakeStripe, type FakeStripe } from "../test-support/fake-stripe"
import { freePort } from "../test-support/free-port"
import type { Cleanup } from "../demo/cleanup"
import { MedusaServer } from "../demo/medusa-process"
import { preparePackedStore, type PackedStore } from "../demo/packed-store"
import { step } from "../demo/progress"
import { paybrightProviderOptions } from "../demo/store"
import { DatabaseQueries, STATEMENT_STATISTICS } from "./queries"
import { RemoteCalls } from "./remote-calls"

export type BenchStore = {
  store: PackedStore
  server: MedusaServer
  simulator: Simulator
  stripe: FakeStripe
  calls: RemoteCalls
  /** Undefined on a PostgreSQL the caller named, which may not count statements. */
  queries?: DatabaseQueries
}

/** The four ways to pay the bench compares, as Medusa names their providers. */
export const PROVIDERS = {
  system: "pp_system_default",
  stripe: "pp_stripe_stripe",
  inStore: "pp_paybright_paybright",
  virtualCard: "pp_paybright_card",
}

/**
 * One store, one Medusa process, one database for every contender: PayBright in-store
 * (registration "paybright") and virtual-card on the fake Stripe ("card"), Medusa's system
 * provider, and Medusa's own Stripe provider on the fake Stripe. The lender (simulator) and
 * Stripe (fake) answer at once. The simulator sends no callbacks: the bench delivers the lender's
 * result itself, to time it.
 */
export async function startBenchStore(cleanup: Cleanup): Promise<BenchStore> {
  const stripeLog: { current?: FakeStripe } = {}
  const calls = new RemoteCalls(() => stripeLog.current?.requests() ?? [])
  const simulator = await startSimulator({
    decision: "approve",
    callback: { enabled: false },
    logger: { info: (line) => calls.lenderRequest(line), warn: () => undefined },
  })
  cleanup.add("the simulator", () => simulator.close())
  // Charges on the virtual card reach the lender's books, as the card network would carry them.
  const stripe = await startFakeStripe({ onCardTransaction: (event) => simulator.cardTransaction(event) })
  stripeLog.current = stripe
  cleanup.add("the fake Stripe", () => stripe.close())

  const port = await freePort()
  const settings = {
    port,
    simulatorUrl: simulator.url,
    ...SIMULATOR_TEST_ACCOUNT,
    storefrontUrl: "http://localhost:8000",
    captureMode: "in_store" as const,
    admin: false,
  }
  const virtualCard = paybrightProviderOptions(
    { ...settings, databaseUrl: "" },
    {
      captureMode: "virtual_card",
      cardProcessor: {
        type: "stripe",
        options: { secretKey: stripe.secretKey, host: stripe.host, port: stripe.port, protocol: "http" },
      },
    }
  )
  const store = await preparePackedStore(
    cleanup,
    {
      ...settings,
      extraProviders: [
        { resolve: "medusa-payment-paybright/providers/paybright", id: "card", options: virtualCard },
        {
          resolve: require.resolve("./stripe-peer"),
          id: "stripe",
          options: { apiKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.url },
        },
      ],
      // Medusa processes a provider's webhook after this delay (default 5 s); low, as the issue asks.
      paymentModuleOptions: { webhook_delay: 1 },
    },
    { providerIds: Object.values(PROVIDERS), stockedQuantity: 100_000, prices: [64.5, 89.95, 120] },
    { postgresSettings: STATEMENT_STATISTICS }
  )
  const server = new MedusaServer(store.storeDir, store.env, `http://localhost:${port}`)
  cleanup.add("Medusa", () => server.stop())
  await step("Start Medusa", async (note) => {
    await server.start(240_000)
    note(server.url)
  })
  const queries = await DatabaseQueries.open(String(store.env.DATABASE_URL))
  if (queries) cleanup.add("the statement counter", () => queries.close())
  return { store, server, simulator, stripe, calls, queries }
}
