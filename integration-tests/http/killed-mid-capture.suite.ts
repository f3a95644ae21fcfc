import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import type { AppSuite } from "../helpers/one-app"
import { medusaTotals } from "../helpers/ledger"
import { signal } from "../helpers/go-file"
import { medusaExec, until } from "../helpers/medusa-exec"
import { placePayBrightOrder } from "../helpers/placed-order"
import type { SeededStore } from "../../test-support/seed-store"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"
import { paymentLockKey } from "../../src/lib/payment-lock"
import paybrightCaptureMissedParcels from "../../src/jobs/paybright-capture-missed-parcels"
import { reconcileMoneyRecordsWorkflow } from "../../src/workflows"

// Payments capture at shipment, and nothing ships here: this app never captures by itself; the
// separate process captures a packed parcel as its shipment's subscriber would, and dies doing it.
export const killedMidCapture: AppSuite = {
  title: "a process killed mid-capture",
  tests: ({ api, getContainer, dbConfig }, lender) => {
    let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]

    beforeAll(async () => {
      ;({ simulator, store, admin } = await storeFixture(getContainer(), lender, {
        prices: [300, 40],
        shippingPrice: 10,
      }))
    })

    /** The cross-process script in a whole second Medusa process on the same database. */
    const medusaProcess = (env: Record<string, string>) =>
      medusaExec("./integration-tests/cross-process/capture-then-die.ts", dbConfig.clientUrl, {
        // Longer than the lender holds the answer: the process is killed while it waits.
        PAYBRIGHT_TIMEOUT_MS: "120000",
        ...env,
      })

    /** A placed order and a second Medusa process ready to capture its parcel once told which. */
    async function orderAndDoomedProcess(item: { variantIndex: number; quantity: number }) {
      const placed = await placePayBrightOrder(api, getContainer(), store, simulator, admin, [item])
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paybright-kill-"))
      const goFile = path.join(dir, "go")
      const doomed = medusaProcess({ PAYBRIGHT_KILL_GO: goFile })
      await until(() => fs.existsSync(`${goFile}.ready`), 120_000, doomed.output)
      return { ...placed, dir, goFile, doomed }
    }

    /** Packs every item of the order in one parcel (not shipped: this app captures nothing). */
    async function packAll(order: { id: string; items: any[] }): Promise<string> {
      const { data } = await api.post(
        `/admin/orders/${order.id}/fulfillments?fields=fulfillments.id`,
        {
          items: order.items.map((item: any) => ({ id: item.id, quantity: item.quantity })),
          location_id: store.stockLocationId,
        },
        admin
      )
      return data.order.fulfillments[0].id
    }

    it("captures once at the lender, with Medusa agreeing or an in-doubt record, when a process is killed mid-capture", async () => {
      const { order, payment, reference, dir, goFile, doomed } = await orderAndDoomedProcess({
        variantIndex: 0,
        quantity: 1,
      })

      // The lender makes the capture and holds its answer for two minutes.
      simulator.injectFault(reference, { operation: "capture", kind: "slow", delayMs: 120_000 })
      const fulfillmentId = await packAll(order)
      signal(goFile, fulfillmentId)
      await until(() => simulator.contract(reference)!.captures.length > 0, 60_000, doomed.output)
      doomed.child.kill("SIGKILL")
      expect(await doomed.exited).toBeNull()
      expect(fs.existsSync(`${goFile}.survived`)).toBe(false)

      // Medusa committed its Capture before the call: it counts it, and the record explains it.
      const module = getContainer().resolve("paybright") as any
      const [left] = await module.listPayBrightMoneyRecords({ payment_id: payment.id })
      expect(left).toMatchObject({ state: "pending", medusa_id: expect.stringMatching(/^capt?_/) })

      // Restarted, the reconciliation finds it.
      const report = path.join(dir, "report.json")
      const restarted = medusaProcess({ PAYBRIGHT_RECONCILE_OUT: report })
      expect(await restarted.exited).toBe(0)
      const result = JSON.parse(fs.readFileSync(report, "utf8"))
      expect(result.in_doubt).toContain(left.id)
      const { data: listed } = await api.get(`/admin/paybright/payments/${payment.id}/records`, admin)
      expect(listed.records[0]).toMatchObject({ id: left.id, state: "in_doubt", medusa_id: left.medusa_id })

      // The dead process's lease on the payment's lock lapses (its lifetime is minutes: here its end
      // is brought forward, as that time passing would); the next lock taker clears it.
      await getContainer()
        .resolve("__pg_connection__")
        .raw(`update locking set expiration = now() - interval '1 second' where id = ?`, [paymentLockKey(payment.id)])
      // Nothing captures twice while it stands; the merchant sees the capture in the portal and says so.
      const again = await api.post(
        `/admin/payments/${payment.id}/capture`,
        {},
        { ...admin, validateStatus: () => true }
      )
      expect(again.status).toBe(400)
      await api.post(`/admin/paybright/records/${left.id}/resolve`, { lender_shows: "done" }, admin)
      const medusa = await medusaTotals(getContainer(), payment.id)
      const books = simulator.contract(reference)!
      expect(books.captures).toHaveLength(1)
      expect(medusa.captures).toEqual([books.captured])
      fs.rmSync(dir, { recursive: true, force: true })
    })

    it("captures a shipped parcel without a person when its process was killed before anything was sent", async () => {
      const { order, payment, reference, dir, goFile, doomed } = await orderAndDoomedProcess({
        variantIndex: 1,
        quantity: 2,
      })
      const fulfillmentId = await packAll(order)

      // The database is slow to take Medusa's Capture row: the process has written the parcel's
      // record and waits on the insert when it is killed, so nothing reached Medusa or the lender.
      const database = getContainer().resolve("__pg_connection__")
      const slowCaptures = await database.transaction()
      await slowCaptures.raw("lock table capture in exclusive mode")
      signal(goFile, fulfillmentId)
      const waitingOnCapture = async () =>
        (
          await database.raw(
            `select 1 from pg_locks where relation = 'capture'::regclass and not granted and mode = 'RowExclusiveLock'`
          )
        ).rows.length > 0
      await until(waitingOnCapture, 60_000, doomed.output)
      doomed.child.kill("SIGKILL")
      expect(await doomed.exited).toBeNull()
      await slowCaptures.rollback()

      const module = getContainer().resolve("paybright") as any
      const [written] = await module.listPayBrightMoneyRecords({ payment_id: payment.id })
      expect(written).toMatchObject({ state: "pending", medusa_id: null, fulfillment_id: fulfillmentId })
      expect(simulator.contract(reference)!.captures).toHaveLength(0)
      // Time passes (the dead process's lease lapses) and the scheduled jobs run, twice over.
      await getContainer()
        .resolve("__pg_connection__")
        .raw(`update locking set expiration = now() - interval '1 second' where id = ?`, [paymentLockKey(payment.id)])
      for (const _ of [1, 2]) {
        await reconcileMoneyRecordsWorkflow(getContainer()).run({ input: { stale_after_ms: 0 } })
        await paybrightCaptureMissedParcels(getContainer())
      }

      const books = simulator.contract(reference)!
      expect(books.captures.map((capture) => capture.amount)).toEqual([books.authorized])
      expect((await medusaTotals(getContainer(), payment.id)).captures).toEqual([books.authorized])
      const records = await module.listPayBrightMoneyRecords(
        { payment_id: payment.id },
        { order: { created_at: "ASC" } }
      )
      expect(records).toEqual([
        expect.objectContaining({ id: written.id, state: "refused", medusa_id: null }),
        expect.objectContaining({
          state: "done",
          trigger: "retry",
          retry_of: written.id,
          fulfillment_id: fulfillmentId,
        }),
      ])
      fs.rmSync(dir, { recursive: true, force: true })
    })
  },
}
