import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { Modules } from "@medusajs/framework/utils"
import { TestEventUtils } from "@medusajs/test-utils"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import { follow, submitApplication } from "../helpers/hosted-application"
import { medusaTotals, orderPayment } from "../helpers/ledger"
import { signal } from "../helpers/go-file"
import { medusaExec, until } from "../helpers/medusa-exec"
import { capturePaymentOnceWorkflow } from "../../src/workflows"
import type { SeededStore } from "../../test-support/seed-store"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"
import { cartReadyForPayment, choosePayBright } from "../helpers/shopper"
import { orderIdOf } from "../../test-support/storefront"
import type { AppSuite } from "../helpers/one-app"

export type CrossProcessLocking = "postgres" | "redis"

/**
 * Two server processes of one store capture the same shipped parcel at the same moment; the
 * lender must see one capture. Run on an app that locks as a store would across processes: through
 * its own PostgreSQL (no Redis), or Redis. A slow lender widens the window in which a second
 * process could capture the same parcel.
 */
export function captureRace(locking: CrossProcessLocking): AppSuite {
  return {
    title: `two server processes capturing one parcel, with ${locking} locks`,
    lender: { apiLatencyMs: 700 },
    tests: ({ api, getContainer, dbConfig }, lender) => {
      let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]

      beforeAll(async () => {
        ;({ simulator, store, admin } = await storeFixture(getContainer(), lender, {
          prices: [565, 33.3333],
          shippingPrice: 25,
        }))
      })

      it(`runs with the ${locking} locking provider`, () => {
        const provider = (getContainer().resolve(Modules.LOCKING) as unknown as { defaultProviderId: string })
          .defaultProviderId
        expect(provider).toContain(`locking-${locking}`)
      })

      it("captures a shipped parcel once when two server processes capture it at the same moment", async () => {
        const cart = await cartReadyForPayment(api, store, [
          { variantIndex: 0, quantity: 1 },
          { variantIndex: 1, quantity: 3 },
        ])
        const session = await choosePayBright(api, store, cart)
        const back = await follow((await submitApplication(session.data.redirect)).location!)
        const orderId = orderIdOf(back.location)
        const payment = await orderPayment(getContainer(), orderId)
        const { data } = await api.get(`/admin/orders/${orderId}?fields=*items`, admin)
        const lamps = data.order.items.find((item: any) => item.title !== "Sofa")

        // The second process: the same app, database and locks, its own memory.
        const goFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "paybright-race-")), "go")
        const second = medusaExec("./integration-tests/cross-process/capture-race.ts", dbConfig.clientUrl, {
          PAYBRIGHT_RACE_GO: goFile,
        })
        const output = second.output
        const exited = second.exited
        await until(() => fs.existsSync(`${goFile}.ready`), 90_000, output)

        const { data: fulfilled } = await api.post(
          `/admin/orders/${orderId}/fulfillments?fields=fulfillments.id`,
          { items: [{ id: lamps.id, quantity: 3 }], location_id: store.stockLocationId },
          admin
        )
        const fulfillmentId = fulfilled.order.fulfillments[0].id
        // All at once: the other process three times, this one on the shipment event and twice more.
        const subscriberDone = TestEventUtils.waitSubscribersExecution(
          "shipment.created",
          getContainer().resolve(Modules.EVENT_BUS),
          { timeout: 60_000 }
        )
        signal(goFile, fulfillmentId)
        const here = await Promise.all([
          capturePaymentOnceWorkflow(getContainer())
            .run({ input: { trigger: "shipment", fulfillment_id: fulfillmentId } })
            .then(({ result }) => result),
          api.post(
            `/admin/orders/${orderId}/fulfillments/${fulfillmentId}/shipments`,
            { items: [{ id: lamps.id, quantity: 3 }] },
            admin
          ),
          capturePaymentOnceWorkflow(getContainer())
            .run({ input: { trigger: "shipment", fulfillment_id: fulfillmentId } })
            .then(({ result }) => result),
        ])
        expect([here[0].status, here[2].status]).toEqual(["done", "done"])
        await subscriberDone
        await until(() => fs.existsSync(`${goFile}.done`), 60_000, output)
        expect(await exited).toBe(0)

        await until(
          async () =>
            (await api.get(`/admin/paybright/orders/${orderId}/captures`, admin)).data.captures.every(
              (capture: any) => capture.state !== "pending"
            ),
          30_000,
          output
        )
        const { data: records } = await api.get(`/admin/paybright/orders/${orderId}/captures`, admin)
        const contract = simulator.contractByReference(session.id)!
        expect(contract.captures.map((capture) => capture.amount)).toEqual(["141.25"])
        const medusa = await medusaTotals(getContainer(), payment.id)
        expect(medusa.captures).toEqual(["141.25"])
        expect(records.captures).toHaveLength(1)
        const outcomes = JSON.parse(fs.readFileSync(`${goFile}.done`, "utf8"))
        fs.rmSync(path.dirname(goFile), { recursive: true, force: true })
        // Each outcome whole, so a failure shows what the other process was answered.
        expect(outcomes).toEqual([1, 2, 3].map(() => expect.objectContaining({ status: "done" })))
      })
    },
  }
}
