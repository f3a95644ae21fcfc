import { startSimulator, SIMULATOR_TEST_ACCOUNT, type Simulator } from "../../src/lenders/paybright/simulator"
import { freePort } from "../../test-support/free-port"
import { preparePackedStore, type PackedStore } from "../../demo/packed-store"
import type { Cleanup } from "../../demo/cleanup"
import { MedusaServer } from "../../demo/medusa-process"
import { step } from "../../demo/progress"
import { startRedis, type TestRedis } from "../../test-support/redis"
import { paybrightProviderOptions } from "../../demo/store"

/**
 * A catalogue wide enough for the shoppers of one burst to buy different products: see
 * productsOfCheckout. Prices from 49.99 to 1519.99 CAD.
 */
export const PRODUCT_PRICES = Array.from({ length: 50 }, (_, index) => Number((49.99 + index * 30).toFixed(2)))

/**
 * The two products checkout `index` buys, always in the same order: a pair of neighbours, shared
 * with the checkouts 25 apart. Medusa 2.21's cart completion locks a cart's inventory items in
 * line-item order, so two carts holding the same two products in opposite orders can each wait
 * for the other until the lock times out, and the completion is reverted: a Medusa limit, kept
 * out of this suite (and noted in docs/production.md).
 */
export function productsOfCheckout(index: number): number[] {
  const pair = index % (PRODUCT_PRICES.length / 2)
  return [2 * pair, 2 * pair + 1]
}

export type Topology = {
  store: PackedStore
  simulator: Simulator
  server: MedusaServer
  workers: MedusaServer[]
  redis: TestRedis
  /** The provider's time limit on each call to the lender. */
  lenderTimeoutMs: number
}

/** Every process of the topology, for reading their logs. */
export function processesOf(topology: Topology): { role: string; process: MedusaServer }[] {
  return [
    { role: "server", process: topology.server },
    ...topology.workers.map((worker, index) => ({ role: `worker ${index + 1}`, process: worker })),
  ]
}

/**
 * Medusa as stores that outgrow one process run it: one server (HTTP only) and two workers
 * (subscribers and scheduled jobs), sharing PostgreSQL and Redis through Medusa's Redis event bus,
 * Redis workflow engine and Redis locking, with the plugin installed from its npm tarball.
 * Redis is REDIS_URL's, or a redis-server started here (which the faults can restart).
 */
export async function startTopology(cleanup: Cleanup, workerCount = 2): Promise<Topology> {
  const redis = await step("Redis", async (note) => {
    const started = await startRedis().catch((error: Error) => {
      throw new Error(
        `no Redis: set REDIS_URL to a Redis server, or install Debian's redis-server (apt-get install redis-server). ${error.message}`
      )
    })
    cleanup.add("Redis", () => started.stop())
    note(process.env.REDIS_URL ? `REDIS_URL ${started.url}` : `redis-server ${started.url}`)
    return started
  })
  const redisUrl = redis.url

  // Every callback twice, 300 ms apart: the shopper's return lands before, between or after them.
  // A store placing 50 orders at once on two cores answers slowly: the lender waits 30 s for an
  // answer, and retries 5 times 60 s apart, as the hosted payment protocol recommends.
  const simulator = await startSimulator({
    decision: "approve",
    callback: { copies: 2, copyIntervalMs: 300, retries: 5, retryIntervalMs: 60_000, timeoutMs: 30_000 },
  })
  cleanup.add("the simulator", () => simulator.close())

  const port = await freePort()
  const store = await preparePackedStore(
    cleanup,
    {
      port,
      simulatorUrl: simulator.url,
      ...SIMULATOR_TEST_ACCOUNT,
      storefrontUrl: "http://localhost:8000",
      captureMode: "in_store",
      admin: false,
      redis: true,
    },
    { prices: PRODUCT_PRICES, stockedQuantity: 10_000 },
    {
      env: {
        REDIS_URL: redisUrl,
        // The plugin's own jobs, sooner than their defaults (by configuration), so the suite sees
        // what they do with the work a killed process left behind.
        PAYBRIGHT_RECONCILE_SCHEDULE: "* * * * *",
        PAYBRIGHT_PENDING_IN_DOUBT_AFTER_SECONDS: "120",
      },
    }
  )

  const start = async (role: "server" | "worker", index: number) => {
    const processPort = role === "server" ? port : await freePort()
    // Info level: the suite reads what the workers' jobs did from their logs.
    const env = { ...store.env, LOG_LEVEL: "info", MEDUSA_WORKER_MODE: role, PORT: String(processPort) }
    const name = role === "server" ? "server" : `worker-${index}`
    const medusa = new MedusaServer(store.storeDir, env, `http://localhost:${processPort}`, `${name}.log`)
    cleanup.add(`Medusa ${name}`, () => medusa.stop())
    await medusa.start(240_000)
    return medusa
  }
  const [server, ...workers] = await step(`Start Medusa: one server, ${workerCount} workers`, async (note) => {
    const started = await Promise.all([
      start("server", 0),
      ...Array.from({ length: workerCount }, (_, index) => start("worker", index + 1)),
    ])
    note(started.map((medusa) => medusa.url).join(", "))
    return started
  })
  const lenderTimeoutMs = Number(paybrightProviderOptions(store.settings).timeoutMs)
  return { store, simulator, server, workers, redis, lenderTimeoutMs }
}
