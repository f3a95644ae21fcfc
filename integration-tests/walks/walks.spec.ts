import { writeFileSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import { useSimulator } from "../helpers/simulator"
import { useAppPort } from "../helpers/app-port"
import { follow, submitApplication } from "../helpers/hosted-application"
import { parcels } from "../helpers/parcels"
import { cartReadyForPayment, choosePayBright } from "../helpers/shopper"
import { orderIdOf } from "../../test-support/storefront"
import type { SeededStore } from "../../test-support/seed-store"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"
import { boundariesOf, crossingsOf, type Walk } from "./walk"

/**
 * `npm run walks`: how far a reader travels to follow the plugin's two main acts, measured on a
 * real store. The plugin's source is compiled with a mark at the start of every function
 * (scripts/walks/instrument.js); each act is watched from the request that starts it until the
 * plugin goes quiet, and its walk is the plugin's files in the order the act first enters them
 * (a reader opens each file once). Its crossings are the folder boundaries it crosses: each pair
 * of folders (a file's directory under src/) it steps between, counted once. The simulator is the
 * lender's side and is left out. Each walk must cross 12 boundaries or fewer.
 */
const MOST_CROSSINGS = 12
/** How long the plugin must stay quiet before an act counts as over. */
const QUIET_MS = 750

jest.setTimeout(180_000)

useAppPort()
const lender = useSimulator(
  { decision: "approve", callback: { enabled: false } },
  { PAYBRIGHT_CAPTURE_ON_PROVIDERS: "1" }
)

type Recorder = ((file: string) => void) | undefined
const global = globalThis as typeof globalThis & { __paybrightWalk?: Recorder }

/** Runs an act and answers the plugin's files it entered, in the order it first entered them. */
async function watch(act: () => Promise<unknown>): Promise<string[]> {
  const files: string[] = []
  let last = Date.now()
  global.__paybrightWalk = (file) => {
    last = Date.now()
    if (!file.startsWith("lenders/paybright/simulator/") && !files.includes(file)) files.push(file)
  }
  try {
    await act()
    while (Date.now() - last < QUIET_MS) await new Promise((resolve) => setTimeout(resolve, 100))
  } finally {
    global.__paybrightWalk = undefined
  }
  return files
}

medusaIntegrationTestRunner({
  env: { MEDUSA_DISABLE_TELEMETRY: "true" },
  testSuite: ({ api, getContainer }) => {
    let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]
    const walks: Walk[] = []

    beforeAll(async () => {
      ;({ simulator, store, admin } = await storeFixture(getContainer(), lender, { prices: [565], shippingPrice: 25 }))
    })

    afterAll(() => {
      const report = walks
        .map((walk) => [
          `walk ${walk.name}: ${crossingsOf(walk.files)} crossings`,
          ...walk.files.map((file) => `  ${file}`),
          "  boundaries:",
          ...boundariesOf(walk.files).map((boundary) => `    ${boundary}`),
        ])
        .flat()
        .join("\n")
      const dir = join(__dirname, "../../test-artifacts")
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, "walks.txt"), `${report}\n`)
      process.stdout.write(`\n${report}\n\n`)
    })

    const { ship } = parcels(api, () => ({ admin, store }))

    it(`follows a lender result and a shipment capture across at most ${MOST_CROSSINGS} folder boundaries each`, async () => {
      const cart = await cartReadyForPayment(api, store, [{ variantIndex: 0, quantity: 1 }])
      const session = await choosePayBright(api, store, cart)
      const back = (await submitApplication(session.data.redirect)).location!
      let orderId = ""
      const result = await watch(async () => {
        orderId = orderIdOf((await follow(back)).location)
      })
      walks.push({ name: "lender-result", files: result })
      expect(orderId).toMatch(/^order_/)

      const reference = simulator.contractByReference(session.id)!.gateway_reference
      const { data } = await api.get(`/admin/orders/${orderId}?fields=id,*items`, admin)
      const capture = await watch(async () => {
        await ship(
          orderId,
          data.order.items.map((item: any) => ({ id: item.id, quantity: item.quantity }))
        )
        for (let i = 0; i < 100 && !simulator.contract(reference)!.captures.length; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      })
      walks.push({ name: "shipment-capture", files: capture })
      expect(simulator.contract(reference)!.captures).toHaveLength(1)

      expect(walks.filter((walk) => crossingsOf(walk.files) > MOST_CROSSINGS).map((walk) => walk.name)).toEqual([])
    })
  },
})
