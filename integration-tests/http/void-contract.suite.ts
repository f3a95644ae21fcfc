import type PayBrightModuleService from "../../src/modules/paybright/service"
import { VOID_FAULT_ACTS, VOID_FAULT_KINDS, type Simulator } from "../../src/lenders/paybright/simulator"
import { VOID_EXPECTED_OUTCOME } from "../../test-support/fault-matrix"
import { voidFinalOrphans } from "../../src/sweeps/void-orphans"
import { reconcileMoneyRecordsWorkflow } from "../../src/workflows"
import { approvedForReplacedSession, listApprovals } from "../helpers/approvals"
import type { AppSuite } from "../helpers/one-app"
import { medusaTotals } from "../helpers/ledger"
import { placedOncePerSuite, placePayBrightOrder, SOFA_AND_TWO_LAMPS } from "../helpers/placed-order"
import type { SeededStore } from "../../test-support/seed-store"
import { Modules } from "@medusajs/framework/utils"
import { paymentLockKey } from "../../src/lib/payment-lock"
import { refuseWrites } from "../helpers/database-faults"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"

/** Longer than the provider's timeoutMs (the app's PAYBRIGHT_TIMEOUT_MS). */
const SLOW_MS = 2500

/** Past every approval's grace period and margin: orphans recorded now are final then. */
const LATER = () => Date.now() + 60 * 60_000

/**
 * Cancelling an order that was never captured, or an approval that never became an order,
 * voids its contract at the lender, once, so the shopper carries no loan, with a record that
 * ends done, refused or in doubt, and the merchant sees what is left to do.
 */
export const voidContract: AppSuite = {
  title: "voiding a contract",
  tests: ({ api, getContainer }, lender) => {
    let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]
    const lenient = () => ({ ...admin, validateStatus: () => true })

    beforeAll(async () => {
      ;({ simulator, store, admin } = await storeFixture(getContainer(), lender, { prices: [349.99, 9.66] }))
    })

    beforeEach(() => {
      simulator.settings = { callback: { enabled: false } }
    })

    const placedOrder = placedOncePerSuite(
      () => ({ simulator }),
      () => placePayBrightOrder(api, getContainer(), store, simulator, admin, SOFA_AND_TWO_LAMPS)
    )

    async function panelOf(orderId: string) {
      const { data } = await api.get(`/admin/paybright/orders/${orderId}/panel`, admin)
      return data.panel
    }

    async function attention() {
      const { data } = await api.get("/admin/paybright/attention", admin)
      return data.items as any[]
    }

    async function paymentCancelled(paymentId: string) {
      const [payment] = await getContainer().resolve("payment").listPayments({ id: paymentId })
      return !!payment.canceled_at
    }

    async function orderStatus(orderId: string) {
      const { data } = await api.get(`/admin/orders/${orderId}?fields=status,payment_status`, admin)
      return { status: data.order.status, payment_status: data.order.payment_status }
    }

    it("voids the contract when an unshipped order is cancelled, and the panel says the loan was voided", async () => {
      // The lender also posts the void's result to the callback route it was given.
      simulator.settings = { callback: { enabled: true, delayMs: 0, retries: 2, retryIntervalMs: 100 } }
      const { order, payment, reference } = await placedOrder()
      const approvals = (await listApprovals(api, admin)).length
      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin)

      expect(simulator.contract(reference)!.status).toBe("VOIDED")
      expect(await paymentCancelled(payment.id)).toBe(true)
      expect((await orderStatus(order.id)).status).toBe("canceled")
      const panel = await panelOf(order.id)
      expect(panel).toMatchObject({ status: "voided", expires_at: null })
      expect(panel.records).toEqual([
        expect.objectContaining({ kind: "void", state: "done", amount: simulator.contract(reference)!.authorized }),
      ])
      expect(panel.timeline.map((entry: any) => entry.message)).toContainEqual(
        expect.stringContaining(`Voided PayBright contract ${reference}`)
      )
      // The lender's copy of the void's result is answered 200 and changes nothing else.
      let voidCallbacks: any[] = []
      for (let i = 0; i < 50 && voidCallbacks.length === 0; i++) {
        voidCallbacks = simulator.callbacks().filter((entry: any) => entry.kind === "void" && entry.status === 200)
        if (voidCallbacks.length === 0) await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(voidCallbacks).toHaveLength(1)
      expect((await listApprovals(api, admin)).length).toBe(approvals)
      expect(await attention()).not.toContainEqual(expect.objectContaining({ contract: reference }))
    })

    it("cancels in the reconciliation a payment Medusa left authorized after the lender voided its contract", async () => {
      const { order, payment, reference } = await placedOrder()
      const pg = getContainer().resolve("__pg_connection__")
      // Medusa's write of the cancelled payment, after the provider's void, fails once: its
      // cancellation step logs the error and cancels the order anyway.
      const restore = await refuseWrites(pg, {
        name: "payment_cancel_dropped",
        table: "payment",
        event: "update",
        when: "new.canceled_at is not null",
        once: true,
        message: "the database dropped the write",
      })
      try {
        await api.post(`/admin/orders/${order.id}/cancel`, {}, admin)
      } finally {
        await restore()
      }
      expect(simulator.contract(reference)!.status).toBe("VOIDED")
      expect((await orderStatus(order.id)).status).toBe("canceled")
      expect(await paymentCancelled(payment.id)).toBe(false)

      // The reconciliation finds the done void beside Medusa's live payment, and cancels it in
      // Medusa without asking the lender again (a second void would be turned away).
      const voidedAt = simulator.contract(reference)!.voided_at
      simulator.injectFault(reference, { operation: "void", kind: "bad_request", message: "voided already" })
      const { result } = await reconcileMoneyRecordsWorkflow(getContainer()).run({ input: { stale_after_ms: 60_000 } })
      expect(await paymentCancelled(payment.id)).toBe(true)
      expect(result.cancelled_in_medusa).toEqual([payment.id])
      expect(simulator.contract(reference)!.voided_at).toBe(voidedAt)
      const { result: again } = await reconcileMoneyRecordsWorkflow(getContainer()).run({
        input: { stale_after_ms: 60_000 },
      })
      expect(again.cancelled_in_medusa).toEqual([])
    })

    it("shows a refused void at once, keeps the payment, and voids the contract on retry", async () => {
      const { order, payment, reference } = await placedOrder()
      simulator.injectFault(reference, { operation: "void", kind: "bad_request", message: "contract is locked" })
      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin)

      // Medusa cancelled the order; the loan is still live, and the merchant is told so.
      expect(simulator.contract(reference)!.status).toBe("PENDING")
      expect(await paymentCancelled(payment.id)).toBe(false)
      const panel = await panelOf(order.id)
      expect(panel.status).toBe("void_failed")
      const [refused] = panel.records
      expect(refused).toMatchObject({ kind: "void", state: "refused", actions: ["retry_void", "resolve"] })
      expect(refused.message).toMatch(/was not voided .*contract is locked.*the shopper's loan is still live/)
      expect(await attention()).toContainEqual(
        expect.objectContaining({ kind: "unvoided_contract", order_id: order.id, record_id: refused.id })
      )

      const { data } = await api.post(`/admin/paybright/voids/${refused.id}/retry`, {}, admin)
      expect(data.record).toMatchObject({ kind: "void", state: "done", trigger: "retry", retry_of: refused.id })
      expect(simulator.contract(reference)!.status).toBe("VOIDED")
      expect(await paymentCancelled(payment.id)).toBe(true)
      expect((await panelOf(order.id)).status).toBe("voided")
      expect(await attention()).not.toContainEqual(expect.objectContaining({ order_id: order.id }))
      const again = await api.post(`/admin/paybright/voids/${refused.id}/retry`, {}, lenient())
      expect(again.status).toBe(400)
    })

    it("leaves a void in doubt to a person: voided as the portal shows, or tried again", async () => {
      // The lender voids, then fails while answering: the portal shows it cancelled.
      const first = await placedOrder()
      simulator.injectFault(first.reference, { operation: "void", kind: "status_502" })
      await api.post(`/admin/orders/${first.order.id}/cancel`, {}, admin)
      const [doubt] = (await panelOf(first.order.id)).records
      expect(doubt).toMatchObject({ kind: "void", state: "in_doubt", actions: ["resolve"] })
      expect(doubt.message).toMatch(/may have been voided .*resolve this record as voided or not/)
      await api.post(`/admin/paybright/records/${doubt.id}/resolve`, { lender_shows: "done" }, admin)
      expect(simulator.contract(first.reference)!.status).toBe("VOIDED")
      expect(await paymentCancelled(first.payment.id)).toBe(true)
      expect((await panelOf(first.order.id)).status).toBe("voided")

      // The lender fails before voiding: the portal shows it live, so it is tried again.
      const second = await placedOrder()
      simulator.injectFault(second.reference, { operation: "void", kind: "status_503" })
      await api.post(`/admin/orders/${second.order.id}/cancel`, {}, admin)
      const [unsure] = (await panelOf(second.order.id)).records
      expect(unsure.state).toBe("in_doubt")
      const { data } = await api.post(
        `/admin/paybright/records/${unsure.id}/resolve`,
        { lender_shows: "nothing" },
        admin
      )
      expect(data.record).toMatchObject({ state: "refused" })
      await api.post(`/admin/paybright/voids/${unsure.id}/retry`, {}, admin)
      expect(simulator.contract(second.reference)!.status).toBe("VOIDED")
      expect(await paymentCancelled(second.payment.id)).toBe(true)
    })

    it("resolves a void as voided only with Medusa's cancellation of the payment: refused, the record stays in doubt", async () => {
      const { order, payment, reference } = await placedOrder()
      simulator.injectFault(reference, { operation: "void", kind: "status_502" })
      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin)
      const [doubt] = (await panelOf(order.id)).records
      expect(doubt).toMatchObject({ kind: "void", state: "in_doubt" })

      // Medusa's write of the cancelled payment fails once, as a dropped write fails it.
      const restore = await refuseWrites(getContainer().resolve("__pg_connection__"), {
        name: "cancel_refused",
        table: "payment",
        event: "update",
        when: `new.id = '${payment.id}' and new.canceled_at is not null`,
        once: true,
        message: "the database dropped the write",
      })
      try {
        const refused = await api.post(
          `/admin/paybright/records/${doubt.id}/resolve`,
          { lender_shows: "done" },
          lenient()
        )
        expect(refused.status).toBe(400)
        expect(refused.data.message).toMatch(/Medusa refused to record this void .*stays in doubt/)
      } finally {
        await restore()
      }
      expect(await paymentCancelled(payment.id)).toBe(false)
      const { records: after, timeline } = await panelOf(order.id)
      expect(after[0]).toMatchObject({ id: doubt.id, state: "in_doubt", actions: ["resolve"] })
      expect(await attention()).toContainEqual(expect.objectContaining({ kind: "in_doubt", record_id: doubt.id }))
      // The timeline says what happened: the void in doubt, and no resolution Medusa did not record.
      expect(timeline.map((entry: { kind: string }) => entry.kind)).toContain("void.in_doubt")
      expect(timeline.map((entry: { kind: string }) => entry.kind)).not.toContain("record.resolved")

      // Resolved again once Medusa writes: voided, with Medusa's side of it.
      await api.post(`/admin/paybright/records/${doubt.id}/resolve`, { lender_shows: "done" }, admin)
      expect(await paymentCancelled(payment.id)).toBe(true)
      expect((await panelOf(order.id)).status).toBe("voided")
    })

    // One test per fault, each on the order placed once for the suite: the matrix's outcome for
    // that fault, then what a person does (resolve as the portal shows, retry what is still live).
    it.each(VOID_FAULT_KINDS)(
      "meets a %s fault on a void as documented, and leaves no loan live once resolved",
      async (kind) => {
        const { order, payment, reference } = await placedOrder()
        simulator.injectFault(reference, { operation: "void", kind, delayMs: SLOW_MS })
        await api.post(`/admin/orders/${order.id}/cancel`, {}, admin)
        const [record] = (await panelOf(order.id)).records
        const voidedAtLender = simulator.contract(reference)!.status === "VOIDED"
        expect({ record: record.state, voidedAtLender }).toEqual({
          record: VOID_EXPECTED_OUTCOME[kind],
          voidedAtLender: VOID_FAULT_ACTS[kind],
        })
        if (record.state === "in_doubt") {
          await api.post(
            `/admin/paybright/records/${record.id}/resolve`,
            { lender_shows: voidedAtLender ? "done" : "nothing" },
            admin
          )
        }
        if (!voidedAtLender) await api.post(`/admin/paybright/voids/${record.id}/retry`, {}, admin)
        expect({
          lender: simulator.contract(reference)!.status,
          paymentCancelled: await paymentCancelled(payment.id),
        }).toEqual({
          lender: "VOIDED",
          paymentCancelled: true,
        })
      }
    )

    it("refuses to cancel an order while a movement of its payment is in doubt, naming it, and cancels once it is resolved", async () => {
      const { order, payment, reference } = await placedOrder()
      simulator.injectFault(reference, { operation: "capture", kind: "slow", delayMs: SLOW_MS })
      await api.post(`/admin/payments/${payment.id}/capture`, { amount: 100 }, lenient())
      const [doubt] = (await panelOf(order.id)).records
      expect(doubt.state).toBe("in_doubt")
      const refused = await api.post(`/admin/orders/${order.id}/cancel`, {}, lenient())
      expect(refused.status).toBe(400)
      expect(refused.data.message).toBe(
        `Not cancelled: the capture of $100.00 CAD on PayBright contract ${reference} is in doubt (record ${doubt.id}); resolve it in the order's PayBright panel as the PayBright portal shows, then cancel again.`
      )
      expect((await orderStatus(order.id)).status).not.toBe("canceled")
      expect(simulator.contract(reference)!.status).not.toBe("VOIDED")

      await api.post(`/admin/paybright/records/${doubt.id}/resolve`, { lender_shows: "done" }, admin)
      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin)
      expect((await orderStatus(order.id)).status).toBe("canceled")
      const { data } = await api.get(`/admin/paybright/payments/${payment.id}/records`, admin)
      expect(data.records).toContainEqual(
        expect.objectContaining({ kind: "refund", trigger: "order_canceled", state: "done", amount: "100.00" })
      )
      expect(simulator.contract(reference)!.refunded).toBe("100.00")
    })

    it("cancels under the payment's lock like any other refund: it waits for a running movement, and is recorded order_canceled", async () => {
      const { order, payment, reference } = await placedOrder()
      const locking = getContainer().resolve(Modules.LOCKING)
      await locking.acquire(paymentLockKey(payment.id), { ownerId: "a-capture-in-another-process", expire: 30 })
      try {
        const busy = await api.post(`/admin/orders/${order.id}/cancel`, {}, lenient())
        expect(busy.status).toBe(409)
        expect(busy.data.message).toMatch(
          /The order was not cancelled: a capture or refund of its PayBright payment is running/
        )
      } finally {
        await locking.release(paymentLockKey(payment.id), { ownerId: "a-capture-in-another-process" })
      }
      expect((await orderStatus(order.id)).status).not.toBe("canceled")
      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin)
      const { data } = await api.get(`/admin/paybright/payments/${payment.id}/records`, admin)
      expect(data.records).toEqual([
        expect.objectContaining({ kind: "void", trigger: "order_canceled", state: "done" }),
      ])
      expect(simulator.contract(reference)!.status).toBe("VOIDED")
    })

    it("refunds an order with captures when it is cancelled, and never voids it", async () => {
      const { order, payment, reference } = await placedOrder()
      await api.post(`/admin/payments/${payment.id}/capture`, { amount: 100 }, admin)
      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin)
      const books = simulator.contract(reference)!
      expect(books.status).not.toBe("VOIDED")
      expect({ captured: books.captured, refunded: books.refunded }).toEqual({ captured: "100.00", refunded: "100.00" })
      expect(await medusaTotals(getContainer(), payment.id)).toMatchObject({ captured: "100.00", refunded: "100.00" })
      const { data } = await api.get(`/admin/paybright/payments/${payment.id}/records`, admin)
      expect(data.records.map((record: any) => record.kind).sort()).toEqual(["capture", "refund"])
    })

    /** A shopper whose session is replaced while they apply: the approval can never become an order. */
    async function orphanedContract() {
      const { cart, contract } = await approvedForReplacedSession(api, store, simulator)
      const [orphan] = (await listApprovals(api, admin, "orphaned")).filter((entry) => entry.contract === contract)
      expect(orphan).toBeDefined()
      return { cart, contract, orphan }
    }

    it("voids an orphaned approval once it is final, and reports it voided", async () => {
      const { contract, orphan } = await orphanedContract()
      expect(orphan.message).toMatch(/The plugin voids it at PayBright after .* UTC, cancelling the shopper's loan/)
      // Not yet final: nothing is voided.
      expect(await voidFinalOrphans(getContainer())).toEqual({ voided: 0, notVoided: 0 })
      expect(simulator.contract(contract)!.status).toBe("PENDING")

      expect(await voidFinalOrphans(getContainer(), LATER())).toEqual({ voided: 1, notVoided: 0 })
      expect(simulator.contract(contract)!.status).toBe("VOIDED")
      expect(await listApprovals(api, admin, "voided")).toContainEqual(expect.objectContaining({ contract }))
      const records = await getContainer()
        .resolve<PayBrightModuleService>("paybright")
        .listPayBrightMoneyRecords({ contract })
      expect(records).toEqual([
        expect.objectContaining({ kind: "void", trigger: "orphan", state: "done", payment_id: null }),
      ])
      // Once is enough: the next run finds nothing to void.
      expect(await voidFinalOrphans(getContainer(), LATER())).toEqual({ voided: 0, notVoided: 0 })
      expect(await attention()).not.toContainEqual(expect.objectContaining({ contract }))
    })

    it("keeps a refused void of an orphan in needs attention, with a retry that voids it", async () => {
      const { contract } = await orphanedContract()
      simulator.injectFault(contract, { operation: "void", kind: "unauthorized" })
      expect(await voidFinalOrphans(getContainer(), LATER())).toEqual({ voided: 0, notVoided: 1 })
      const item = (await attention()).find((entry) => entry.contract === contract)
      expect(item).toMatchObject({
        kind: "unvoided_contract",
        order_id: null,
        movement: "void",
        actions: ["retry_void", "resolve"],
      })
      // A person retries; the job never tries the same contract twice by itself.
      expect(await voidFinalOrphans(getContainer(), LATER())).toEqual({ voided: 0, notVoided: 0 })
      await api.post(`/admin/paybright/voids/${item.record_id}/retry`, {}, admin)
      expect(simulator.contract(contract)!.status).toBe("VOIDED")
      expect(await listApprovals(api, admin, "voided")).toContainEqual(expect.objectContaining({ contract }))
      expect(await attention()).not.toContainEqual(expect.objectContaining({ contract }))
    })
  },
}
