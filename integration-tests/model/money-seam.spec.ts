import fc from "fast-check"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { useAppPort } from "../helpers/app-port"
import { useSimulator } from "../helpers/simulator"
import { storeFixture } from "../helpers/store-fixture"
import { deliverCallback } from "../helpers/approvals"
import { startFakeStripe, type FakeStripe } from "../../test-support/fake-stripe"
import {
  Apply,
  commandsFor,
  disarmMedusaFailures,
  MEDUSA_FAILURES,
  medusaFailureSql,
  parseSequence,
  refundWhatIsOwed,
  runJobs,
  setStock,
  Shop,
  type MedusaFailure,
} from "./commands"
import { violations } from "./invariants"
import { explorationBudget } from "../../test-support/exploration"
import {
  countRunningSubscribers,
  DAY_STOCK,
  settle,
  type ArmedFault,
  type Model,
  type StoreMode,
  type World,
} from "./world"

/**
 * The money seam explored by a machine: random days of shoppers, the merchant, the lender's (or
 * Stripe's) faults and Medusa's own failures, driven through a real Medusa, PostgreSQL and the
 * simulator, with the invariants of ./invariants.ts checked after every command and once the day
 * is over. A failure is shrunk to its shortest sequence and printed with its seed, to replay with
 * PAYBRIGHT_MODEL_SEED (and PAYBRIGHT_MODEL_PATH), or run as printed with PAYBRIGHT_MODEL_SEQUENCE. `npm test` runs a small fixed budget in the
 * in-store mode (explorationBudget); `npm run test:model -- --runs N [--mode virtual_card]` runs more. Every armed
 * fault is told apart as fired or not (the simulator and the fake Stripe count what they answered
 * with a fault, Medusa's failures count in a sequence that survives the rollback), and the run
 * ends with `faults fired: <kind>=<n> …` and the sequences whose armed fault never fired.
 */
const RUNS = Number(process.env.PAYBRIGHT_MODEL_RUNS ?? explorationBudget({ quick: 1, full: 15 }))
const SEED = Number(process.env.PAYBRIGHT_MODEL_SEED ?? 20261126)
const PATH = process.env.PAYBRIGHT_MODEL_PATH
/** The commands' own path, which fast-check prints beside a counterexample (`replayPath="…"`). */
const REPLAY_PATH = process.env.PAYBRIGHT_MODEL_REPLAY_PATH
/** A sequence as a counterexample prints it (`Deliver(0, callback), Jobs()`): run once, as given. */
const SEQUENCE = process.env.PAYBRIGHT_MODEL_SEQUENCE
/** Commands left out of the random days (`ChangeOrder,EditQuantity`), to look past a known finding. */
const WITHOUT = (process.env.PAYBRIGHT_MODEL_WITHOUT ?? "").split(",").filter(Boolean)
const MODE = (process.env.PAYBRIGHT_MODEL_MODE ?? "in_store") as StoreMode
if (MODE !== "in_store" && MODE !== "virtual_card") {
  throw new Error(`PAYBRIGHT_MODEL_MODE must be in_store or virtual_card, not ${MODE}`)
}

jest.setTimeout(Math.max(300_000, RUNS * 60_000))

useAppPort()
// The test is the lender's courier: it delivers results itself, when the model says so. A short
// client timeout makes a slow lender a timeout within seconds.
const lender = useSimulator(
  { decision: "ask", callback: { enabled: false } },
  { PAYBRIGHT_TIMEOUT_MS: "1500", PAYBRIGHT_LOCK_WAIT_SECONDS: "3" }
)
let stripe: FakeStripe | undefined

beforeAll(async () => {
  if (MODE !== "virtual_card") return
  // The virtual-card store charges the contract's card on the fake Stripe, which reports each
  // charge and refund to the lender as the card network does.
  stripe = await startFakeStripe({ onCardTransaction: (event) => lender.simulator.cardTransaction(event) })
  Object.assign(process.env, {
    PAYBRIGHT_CAPTURE_MODE: "virtual_card",
    PAYBRIGHT_CARD_PROCESSOR: "stripe",
    PAYBRIGHT_STRIPE_URL: stripe.url,
    PAYBRIGHT_STRIPE_KEY: stripe.secretKey,
    PAYBRIGHT_STRIPE_TIMEOUT_MS: "1500",
  })
})

afterAll(async () => {
  await stripe?.close()
})

/**
 * What the run's faults did: fired per kind, and each armed fault that never fired, by sequence;
 * and the money the days moved at the lender, so a run that moved none shows it.
 */
type FaultTally = {
  armed: number
  fired: Map<string, number>
  neverFired: string[]
  moved: { captures: number; refunds: number; voids: number }
  /** The races of an order change run, by pair: a run that never reached one shows it. */
  races: Map<string, number>
}

medusaIntegrationTestRunner({
  env: { MEDUSA_DISABLE_TELEMETRY: "true" },
  testSuite: ({ api, getContainer }) => {
    let world: World

    beforeAll(async () => {
      const { simulator, store, admin } = await storeFixture(getContainer(), lender, {
        prices: [349.99, 89.95, 12.5],
        shippingPrice: 15,
        stockedQuantity: DAY_STOCK,
      })
      world = {
        mode: MODE,
        stripe,
        api,
        container: getContainer,
        simulator,
        store,
        admin,
        lenient: { ...admin, validateStatus: () => true },
        subscribersRunning: countRunningSubscribers(getContainer()),
      }
      // Each failure Medusa may meet, armed by its sequence: the next write fails once, then never.
      const pg = getContainer().resolve("__pg_connection__")
      for (const where of Object.keys(MEDUSA_FAILURES) as MedusaFailure[]) await pg.raw(medusaFailureSql(where))
      await disarmMedusaFailures(world)
    })

    it(`keeps every approval and every cent accounted for through random days (${MODE})`, async () => {
      let sequences = 0
      let steps = 0
      const tally: FaultTally = {
        armed: 0,
        fired: new Map(),
        neverFired: [],
        moved: { captures: 0, refunds: 0, voids: 0 },
        races: new Map(),
      }
      /** One day: the commands in order (those whose precondition fails are left out, as fast-check does). */
      const day = async (commands: Iterable<fc.AsyncCommand<Model, World>>) => {
        const sequence = ++sequences
        const model: Model = { checkouts: [], captureOn: "shipment", steps: 0, armed: [] }
        try {
          await startOfDay(world, model)
          await fc.asyncModelRun(
            () => ({ model, real: world }),
            [...commands].map((command) => withInvariants(command, tally))
          )
          steps += model.steps
          await endOfDay(world, model)
        } finally {
          await countFaults(world, model, sequence, tally)
        }
        const broken = await violations(world, model, true)
        if (broken.length) throw new Error(describe(broken))
      }
      try {
        if (SEQUENCE) await day(parseSequence(SEQUENCE))
        else {
          await fc.assert(
            fc.asyncProperty(
              fc.commands(commandsFor(MODE, WITHOUT), { maxCommands: 24, size: "large", replayPath: REPLAY_PATH }),
              day
            ),
            { numRuns: RUNS, seed: SEED, path: PATH, endOnFailure: false, verbose: 1 }
          )
        }
        console.log(
          `money seam model (${MODE}): ${sequences} sequences, ${steps} commands run (${SEQUENCE ? "one sequence given" : `seed ${SEED}`}), 0 violations`
        )
      } finally {
        console.log(faultsLine(tally))
      }
    })
  },
})

/** A command, then the invariants: the first command after which one breaks is where the sequence fails. */
function withInvariants(command: fc.AsyncCommand<Model, World>, tally: FaultTally): fc.AsyncCommand<Model, World> {
  return {
    check: (model) => command.check(model),
    async run(model, world) {
      const race = /^Together\(\d+, (change [^,]+)/.exec(command.toString())?.[1]
      if (race) tally.races.set(race, (tally.races.get(race) ?? 0) + 1)
      await command.run(model, world)
      const broken = await violations(world, model, false)
      if (broken.length) throw new Error(`after ${command.toString()}: ${describe(broken)}`)
    },
    toString: () => command.toString(),
  }
}

/**
 * Every day starts the same: no fault armed, the warehouse full, the store capturing at shipment, and a first shopper
 * approved at the lender, the result not delivered yet (the random commands then tell the rest of
 * the story, more shoppers included).
 */
async function startOfDay(world: World, model: Model) {
  await disarmMedusaFailures(world)
  world.stripe?.clearFaults()
  await setStock(world, "back")
  await world.api.post("/admin/paybright/settings/pp_paybright_paybright", { captureOn: "shipment" }, world.admin)
  await new Shop(0).run(model, world)
  if (!model.checkouts.length) throw new Error("the day's first shopper could not check out")
  await new Apply(0, "approve").run(model, world)
  model.steps = 0
}

/**
 * The day is over: Medusa fails no more, the lender delivers every result once more (its retries
 * go on for minutes), the jobs run as if hours had passed, and the merchant refunds what Medusa
 * says each order owes back.
 */
async function endOfDay(world: World, model: Model) {
  // Disarming a Medusa failure forgets whether it fired: told first. The lender's and Stripe's may
  // still fire at the day's last deliveries and jobs, and are told after them.
  await settleFaults(model, (fault) => fault.kind.startsWith("medusa."))
  await disarmMedusaFailures(world)
  for (const checkout of model.checkouts) {
    if (checkout.delivery) await deliverCallback(checkout.delivery)
  }
  await runJobs(world)
  const contracts = model.checkouts.flatMap((checkout) => (checkout.contract ? [checkout.contract] : []))
  await settle(world, contracts)
  await refundWhatIsOwed(world, model)
  await settle(world, contracts)
}

/** Tells, for each fault armed (of those chosen) and not yet told, whether it fired. */
async function settleFaults(model: Model, chosen: (fault: ArmedFault) => boolean = () => true) {
  for (const fault of model.armed) {
    if (fault.fired === undefined && chosen(fault)) fault.fired = await fault.settle()
  }
}

/** Adds a sequence's faults to the run's tally, and names those that never fired. */
async function countFaults(world: World, model: Model, sequence: number, tally: FaultTally) {
  await settleFaults(model).catch(() => undefined)
  await disarmMedusaFailures(world).catch(() => undefined)
  world.stripe?.clearFaults()
  for (const checkout of model.checkouts) {
    const contract = checkout.contract ? world.simulator.contract(checkout.contract) : undefined
    tally.moved.captures += contract?.captures.length ?? 0
    tally.moved.refunds += contract?.refunds.length ?? 0
    tally.moved.voids += contract?.status === "VOIDED" ? 1 : 0
  }
  for (const fault of model.armed) {
    tally.armed++
    if (fault.fired) tally.fired.set(fault.kind, (tally.fired.get(fault.kind) ?? 0) + 1)
    else tally.neverFired.push(`sequence ${sequence}: ${fault.command} never fired`)
  }
}

function faultsLine(tally: FaultTally): string {
  const fired = [...tally.fired.entries()].sort(([a], [b]) => a.localeCompare(b))
  const total = fired.reduce((sum, [, n]) => sum + n, 0)
  return [
    `faults fired: ${fired.map(([kind, n]) => `${kind}=${n}`).join(" ") || "none"}`,
    `faults armed: ${tally.armed}, fired: ${total}, never fired: ${tally.neverFired.length}; ` +
      `the lender made ${tally.moved.captures} captures, ${tally.moved.refunds} refunds, ${tally.moved.voids} voids`,
    `order changes raced: ${
      [...tally.races.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([race, n]) => `${race}=${n}`)
        .join(" ") || "none"
    }`,
    ...tally.neverFired,
  ].join("\n")
}

function describe(broken: Awaited<ReturnType<typeof violations>>): string {
  return broken
    .map((violation) => `${violation.invariant} (checkout ${violation.checkout}): ${violation.detail}`)
    .join("; ")
}
