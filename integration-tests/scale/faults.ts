import { Client } from "pg"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import type { MedusaServer } from "../../demo/medusa-process"
import type { TestRedis } from "../../test-support/redis"

/** The kinds of fault the suite injects, in the order its table lists them. */
export const FAULT_KINDS = [
  "worker killed",
  "server killed",
  "Redis restarted",
  "database connections terminated",
  "lender slow",
] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

/** One fault at its moment, in seconds after the checkouts begin. */
export type ScheduledFault = { atSeconds: number; kind: FaultKind; what: string; inject(): Promise<string> }

/** What happened when a fault was injected. */
export type InjectedFault = { kind: FaultKind; what: string; atSeconds: number; outcome: string; error?: string }

export type FaultTargets = {
  server: MedusaServer
  workers: MedusaServer[]
  redis: TestRedis
  simulator: Simulator
  databaseUrl: string
  /** The provider's lender timeout: the slow lender answers later than this. */
  lenderTimeoutMs: number
}

/** Seconds a killed process stays down before it is started again. */
const DOWN_SECONDS = 3
/** A worker is killed every this many seconds, the two in turn. */
const WORKER_KILL_EVERY = 30
/** Worker kills begin this late and stop at this time, so the schedule is bounded. */
const WORKER_KILLS_FROM = 20
const WORKER_KILLS_UNTIL = 260
/** When the server is killed: by then approvals are arriving and shoppers are coming back. */
const SERVER_KILL_AT = 40
const REDIS_RESTART_AT = 115
const DATABASE_CUT_AT = 145
/** The lender answers captures and refunds slowly from here, for this long. */
const LENDER_SLOW_AT = 170
const LENDER_SLOW_FOR = 45

/**
 * The day's faults: a worker SIGKILLed every 30 s and restarted 3 s later; the server SIGKILLed
 * once while callbacks and returns are in flight, then restarted; Redis shut down and started
 * again; every PostgreSQL connection of the Medusa processes terminated; and the lender slower
 * than the provider's timeout for a stretch of captures and refunds.
 */
export function faultSchedule(targets: FaultTargets): ScheduledFault[] {
  const schedule: ScheduledFault[] = []
  for (let at = WORKER_KILLS_FROM, turn = 0; at <= WORKER_KILLS_UNTIL; at += WORKER_KILL_EVERY, turn++) {
    const index = turn % targets.workers.length
    schedule.push({
      atSeconds: at,
      kind: "worker killed",
      what: `worker ${index + 1} SIGKILLed, restarted ${DOWN_SECONDS} s later`,
      inject: () => killAndRestart(targets.workers[index]),
    })
  }
  schedule.push(
    {
      atSeconds: SERVER_KILL_AT,
      kind: "server killed",
      what: `the server SIGKILLed, restarted ${DOWN_SECONDS} s later`,
      inject: () => killAndRestart(targets.server),
    },
    {
      atSeconds: REDIS_RESTART_AT,
      kind: "Redis restarted",
      what: "Redis shut down and started again",
      inject: async () => {
        const started = Date.now()
        await targets.redis.restart()
        return `back after ${Date.now() - started} ms`
      },
    },
    {
      atSeconds: DATABASE_CUT_AT,
      kind: "database connections terminated",
      what: "pg_terminate_backend on every connection of the Medusa processes",
      inject: () => terminateConnections(targets.databaseUrl),
    },
    {
      atSeconds: LENDER_SLOW_AT,
      kind: "lender slow",
      what: `the lender answers ${targets.lenderTimeoutMs / 1000 + 5} s late (past the provider's timeoutMs) for ${LENDER_SLOW_FOR} s`,
      inject: async () => {
        targets.simulator.settings = { apiLatencyMs: targets.lenderTimeoutMs + 5000 }
        await new Promise((resolve) => setTimeout(resolve, LENDER_SLOW_FOR * 1000))
        targets.simulator.settings = { apiLatencyMs: 0 }
        return "answering at once again"
      },
    }
  )
  return schedule.sort((a, b) => a.atSeconds - b.atSeconds)
}

/** Injects each fault at its moment after `startedAt`; resolves once every one is over (processes back). */
export async function runSchedule(schedule: ScheduledFault[], startedAt: number): Promise<InjectedFault[]> {
  return Promise.all(
    schedule.map(async (fault) => {
      const wait = startedAt + fault.atSeconds * 1000 - Date.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      const injected = { kind: fault.kind, what: fault.what, atSeconds: fault.atSeconds }
      try {
        return { ...injected, outcome: await fault.inject() }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        return { ...injected, outcome: "failed", error: message }
      }
    })
  )
}

/** Kills a Medusa process, waits, and starts it again; resolves once it answers /health. */
async function killAndRestart(medusa: MedusaServer): Promise<string> {
  await medusa.kill()
  await new Promise((resolve) => setTimeout(resolve, DOWN_SECONDS * 1000))
  const started = Date.now()
  await medusa.start(240_000)
  return `healthy again ${Math.round((Date.now() - started) / 1000)} s after its restart`
}

/** Terminates every connection to the store's database but this one, as a failover or an operator does. */
async function terminateConnections(databaseUrl: string): Promise<string> {
  const client = new Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ terminated: string }>(
      "SELECT count(pg_terminate_backend(pid)) AS terminated FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    return `${rows[0].terminated} connections terminated`
  } finally {
    await client.end()
  }
}
