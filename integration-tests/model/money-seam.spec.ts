import fc from "fast-check"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { useAppPort } from "../helpers/app-port"
import { useSimulator } from "../helpers/simulator"
import { storeFixture } from "../helpers/store-fixture"
import { deliverCallback } from "../helpers/approvals"
import { Apply, COMMANDS, MEDUSA_FAILURES, runJobs, Shop } from "./commands"
import { violations } from "./invariants"
import { settle, type Model, type World } from "./world"

/**
 * The money seam explored by a machine: random days of shoppers, the merchant, the lender's faults
 * and Medusa's own failures, driven through a real Medusa, PostgreSQL and the simulator, with the
 * invariants of ./invariants.ts checked after every command and once the day is over. A failure
 * is shrunk to its shortest sequence and printed with its seed, to replay with
 * PAYBRIGHT_MODEL_SEED (and PAYBRIGHT_MODEL_PATH). `npm test` runs a small fixed budget;
 * `npm run test:model -- --runs N` runs more.
 */
const RUNS = Number(process.env.PAYBRIGHT_MODEL_RUNS ?? 15)
const SEED = Number(process.env.PAYBRIGHT_MODEL_SEED ?? 20261126)
const PATH = process.env.PAYBRIGHT_MODEL_PATH
/** The commands' own path, which fast-check prints beside a counterexample (`replayPath="…"`). */
const REPLAY_PATH = process.env.PAYBRIGHT_MODEL_REPLAY_PATH

jest.setTimeout(Math.max(300_000, RUNS * 60_000))

useAppPort()
// The test is the lender's courier: it delivers results itself, when the model says so. A short
// client timeout makes a slow lender a timeout within seconds.
const lender = useSimulator(
  { decision: "ask", callback: { enabled: false } },
  { PAYBRIGHT_TIMEOUT_MS: "1500", PAYBRIGHT_LOCK_WAIT_SECONDS: "3" }
)

medusaIntegrationTestRunner({
  env: { MEDUSA_DISABLE_TELEMETRY: "true" },
  testSuite: ({ api, getContainer }) => {
    let world: World

    beforeAll(async () => {
      const { simulator, store, admin } = await storeFixture(getContainer(), lender, {
        prices: [349.99, 89.95, 12.5],
        shippingPrice: 15,
        // Hundreds of days reserve stock: enough that no shopper is turned away for it.
        stockedQuantity: 1_000_000,
      })
      world = {
        api,
        container: getContainer,
        simulator,
        store,
        admin,
        lenient: { ...admin, validateStatus: () => true },
      }
      // Each failure Medusa may meet, armed by its sequence: the next write fails once, then never.
      const pg = getContainer().resolve("__pg_connection__")
      for (const [where, { table, event, when }] of Object.entries(MEDUSA_FAILURES)) {
        await pg.raw(`
          create sequence if not exists paybright_model_${where};
          select setval('paybright_model_${where}', 1000);
          create or replace function paybright_model_${where}() returns trigger language plpgsql as $$
          begin
            if (${when}) and nextval('paybright_model_${where}') = 1 then
              raise exception 'the database refused this write (${where})';
            end if;
            return ${event === "delete" ? "old" : "new"};
          end $$;
          drop trigger if exists paybright_model_${where} on ${table};
          create trigger paybright_model_${where} before ${event} on ${table}
            for each row execute function paybright_model_${where}();`)
      }
    })

    it("keeps every approval and every cent accounted for through random days", async () => {
      let sequences = 0
      let steps = 0
      await fc.assert(
        fc.asyncProperty(
          fc.commands(COMMANDS, { maxCommands: 24, size: "large", replayPath: REPLAY_PATH }),
          async (commands) => {
            sequences++
            const model: Model = { checkouts: [], captureOn: "shipment", steps: 0 }
            await startOfDay(world, model)
            await fc.asyncModelRun(
              () => ({ model, real: world }),
              [...commands].map((command) => withInvariants(command))
            )
            steps += model.steps
            await endOfDay(world, model)
            const broken = await violations(world, model, true)
            if (broken.length) throw new Error(describe(broken))
          }
        ),
        { numRuns: RUNS, seed: SEED, path: PATH, endOnFailure: false, verbose: 1 }
      )
      console.log(`money seam model: ${sequences} sequences, ${steps} commands run (seed ${SEED}), 0 violations`)
    })
  },
})

/** A command, then the invariants: the first command after which one breaks is where the sequence fails. */
function withInvariants(command: fc.AsyncCommand<Model, World>): fc.AsyncCommand<Model, World> {
  return {
    check: (model) => command.check(model),
    async run(model, world) {
      await command.run(model, world)
      const broken = await violations(world, model, false)
      if (broken.length) throw new Error(describe(broken))
    },
    toString: () => command.toString(),
  }
}

/**
 * Every day starts the same: Medusa's failures disarmed, the store capturing at shipment, and a
 * first shopper approved at the lender, the result not delivered yet (the random commands then
 * tell the rest of the story, more shoppers included).
 */
async function startOfDay(world: World, model: Model) {
  const pg = world.container().resolve("__pg_connection__")
  for (const where of Object.keys(MEDUSA_FAILURES)) await pg.raw(`select setval('paybright_model_${where}', 1000)`)
  await world.api.post("/admin/paybright/settings/pp_paybright_paybright", { captureOn: "shipment" }, world.admin)
  await new Shop(0).run(model, world)
  if (!model.checkouts.length) throw new Error("the day's first shopper could not check out")
  await new Apply(0, "approve").run(model, world)
  model.steps = 0
}

/**
 * The day is over: Medusa fails no more, the lender delivers every result once more (its retries
 * go on for minutes), and the jobs run as if hours had passed.
 */
async function endOfDay(world: World, model: Model) {
  const pg = world.container().resolve("__pg_connection__")
  for (const where of Object.keys(MEDUSA_FAILURES)) await pg.raw(`select setval('paybright_model_${where}', 1000)`)
  for (const checkout of model.checkouts) {
    if (checkout.delivery) await deliverCallback(checkout.delivery)
  }
  await runJobs(world)
  await settle(
    world,
    model.checkouts.flatMap((checkout) => (checkout.contract ? [checkout.contract] : []))
  )
}

function describe(broken: Awaited<ReturnType<typeof violations>>): string {
  return broken
    .map((violation) => `${violation.invariant} (checkout ${violation.checkout}): ${violation.detail}`)
    .join("; ")
}
