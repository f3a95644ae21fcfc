import type { AppSuite } from "../helpers/one-app"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import { parcels } from "../helpers/parcels"
import { orderChangeDriver, SOFA_AND_LAMPS_STORE } from "../helpers/order-changes"
import { placedOncePerSuite, placePayBrightOrder, SOFA_AND_THREE_LAMPS } from "../helpers/placed-order"
import { MathBN } from "@medusajs/framework/utils"
import { lenderAmount } from "../../src/lib/lender-cents"
import { isPayBright } from "../../src/storefront/provider"
import type { SeededStore } from "../../test-support/seed-store"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"
import { carriedSessionRefused, refusedYet, refuseWrites } from "../helpers/database-faults"
import { eventually } from "../helpers/eventually"
import { carryMissedContracts } from "../../src/sweeps/carry-missed-contracts"
import { PAYBRIGHT_MODULE } from "../../src/modules/paybright"
import type PayBrightModuleService from "../../src/modules/paybright/service"

/**
 * What the merchant reads around Medusa's order changes on a PayBright order: needs attention, the
 * order's panel and its timeline, through the admin's own routes, at each moment of the change.
 */
export const orderChangeScreens: AppSuite = {
  title: "What the merchant reads around an order change",
  tests: ({ api, getContainer }, lender) => {
    let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]

    beforeAll(async () => {
      ;({ simulator, store, admin } = await storeFixture(getContainer(), lender, SOFA_AND_LAMPS_STORE))
    })

    const { ship, captures } = parcels(api, () => ({ admin, store }))
    const { orderBooks, livePayments, until, exchangeLamp, editQuantity, attentionOf } = orderChangeDriver(api, () => ({
      admin,
      store,
    }))

    const place = (providerId: string) =>
      placePayBrightOrder(api, getContainer(), store, simulator, admin, SOFA_AND_THREE_LAMPS, providerId)
    const placedOrder = placedOncePerSuite(() => ({ simulator }), place, "pp_paybright_paybright")

    /** What Medusa says the order owes beyond what its live PayBright payments can still capture. */
    function owedBeyondTheLoan(order: any) {
      const owed = order.summary.pending_difference
      const capturable = livePayments(order)
        .filter((payment: any) => isPayBright(payment.provider_id))
        .reduce((sum: any, payment: any) => {
          const captured = (payment.captures ?? []).reduce(
            (total: any, capture: any) => MathBN.add(total, capture.amount),
            MathBN.convert(0)
          )
          const left = MathBN.max(MathBN.min(MathBN.sub(payment.amount, captured), owed), 0)
          return MathBN.add(sum, left)
        }, MathBN.convert(0))
      return lenderAmount(MathBN.max(MathBN.sub(owed, capturable), 0))
    }

    /** An order an edit raised above its contract: the contract carried for all it covers, the rest uncovered. */
    async function raisedAboveTheContract() {
      const placed = await placedOrder("pp_paybright_paybright")
      const lamp = placed.order.items.find((item: any) => item.quantity === 3)
      await editQuantity(placed.order.id, lamp.id, 5)
      const books = await until(placed.order.id, (order) =>
        livePayments(order).some((payment: any) => payment.data?.gateway_reference === placed.reference)
      )
      return { placed, lamp, books }
    }

    it("asks needs attention for what Medusa says is owed beyond the loan after an exchange", async () => {
      const { placed, lamp } = await raisedAboveTheContract()
      const sofa = placed.order.items.find((item: any) => item.quantity === 1)
      await ship(placed.order.id, [
        { id: sofa.id, quantity: 1 },
        { id: lamp.id, quantity: 1 },
      ])
      await captures(placed.order.id, 1)
      const [carried] = livePayments(await orderBooks(placed.order.id))
      await exchangeLamp(placed.order.id, lamp.id)
      const books = await until(placed.order.id, (order) =>
        livePayments(order).some((payment: any) => payment.id !== carried.id)
      )
      const owed = owedBeyondTheLoan(books)
      expect(MathBN.gt(owed, 0)).toBe(true)
      expect(await attentionOf(placed.order.id)).toMatchObject([
        { kind: "uncovered_balance", contract: placed.reference, amount: owed },
      ])
      // The timeline says what was uncovered when the contract was carried, as of that moment, and
      // where the amount left is kept.
      const { data } = await api.get(`/admin/paybright/orders/${placed.order.id}/panel`, admin)
      const [latest] = data.panel.timeline.filter((entry: any) => entry.kind === "contract.carried")
      expect(latest.said.values.uncovered).toEqual({ money: { amount: owed, currency: "cad" } })
      expect(latest.message).toContain("At that moment the order owed")
      expect(latest.message).toContain("“PayBright: needs attention” keeps what is still left to collect up to date")
    })

    it("shows the contract being carried until the new payment is there, then that payment, and the approval as PayBright made it", async () => {
      const placed = await placedOrder("pp_paybright_capture-manually")
      const lamp = placed.order.items.find((item: any) => item.quantity === 3)
      const approved = simulator.contract(placed.reference)!.authorized
      const pg = getContainer().resolve("__pg_connection__")
      // The carry on Medusa's event fails once, as a blink of the database would fail it: the window
      // between Medusa cancelling the payment and the contract carried into the new one stays open.
      const name = "screens_carried_session_dropped_once"
      const restore = await refuseWrites(pg, carriedSessionRefused(name))
      try {
        await editQuantity(placed.order.id, lamp.id, 1)
        expect(await eventually(() => refusedYet(pg, name), true)).toBe(true)
      } finally {
        await restore()
      }
      const books = await orderBooks(placed.order.id)
      expect(livePayments(books)).toEqual([])
      const panelNow = async () => (await api.get(`/admin/paybright/orders/${placed.order.id}/panel`, admin)).data.panel
      const waiting = await panelNow()
      expect(waiting).toMatchObject({
        status: "carrying",
        carry_expected: { overdue: false },
        remaining: lenderAmount(books.summary.pending_difference),
        actions: { capture_in_medusa: false, capture_remainder: false },
      })
      expect(waiting.expires_at).not.toBeNull()

      expect(await carryMissedContracts(getContainer(), Date.now() + 5 * 60_000)).toBe(1)
      const [live] = livePayments(await orderBooks(placed.order.id))
      const panel = await panelNow()
      expect(panel).toMatchObject({ payment_id: live.id, status: "awaiting_capture", carry_expected: null })
      // The approval line says what PayBright approved and when, not the carried payment's amount and time.
      const [approval] = await getContainer()
        .resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
        .listPayBrightApprovals({ contract: placed.reference })
      const lines = panel.timeline.filter((entry: any) => entry.kind === "approval.verified")
      expect(lines).toHaveLength(1)
      expect(lines[0].said.values.amount).toEqual({ money: { amount: approved, currency: "CAD" } })
      expect(lines[0].at).toBe(new Date(approval.created_at).toISOString())
      expect(MathBN.lt(live.amount, approved)).toBe(true)
    })

    it("says what the order's own capture mode captures by itself, on the panel and in needs attention", async () => {
      const atShipment = await placedOrder("pp_paybright_paybright")
      const manual = await placedOrder("pp_paybright_capture-manually")
      const panelOf = async (orderId: string) =>
        (await api.get(`/admin/paybright/orders/${orderId}/panel`, admin)).data.panel
      expect(await panelOf(atShipment.order.id)).toMatchObject({
        capture_on: "shipment",
        actions: { capture_in_medusa: true },
      })
      expect(await panelOf(manual.order.id)).toMatchObject({
        capture_on: "manual",
        actions: { capture_in_medusa: true },
      })
      expect(await attentionOf(atShipment.order.id)).toMatchObject([
        { kind: "open_authorization", capture_on: "shipment" },
      ])
      expect(await attentionOf(manual.order.id)).toMatchObject([{ kind: "open_authorization", capture_on: "manual" }])
    })

    it("tells a retry from a page older than a successful retry that the money is captured", async () => {
      const placed = await placedOrder("pp_paybright_paybright")
      simulator.failNext(placed.reference, { operation: "capture", status: 400, message: "Contract under review" })
      await ship(
        placed.order.id,
        placed.order.items.map((item: any) => ({ id: item.id, quantity: item.quantity }))
      )
      const [refused] = await captures(placed.order.id, 1)
      expect(refused.state).toBe("refused")
      const retried = await api.post(`/admin/paybright/captures/${refused.id}/retry`, {}, admin)
      expect(retried.data.capture.status).toBe("done")

      // The same button, pressed again on a page drawn before that retry.
      const stale = await api
        .post(`/admin/paybright/captures/${refused.id}/retry`, {}, admin)
        .catch((error: any) => error.response)
      expect(stale.status).toBe(400)
      expect(stale.data.said).toEqual({
        code: "retry_capture_retried_done",
        values: { amount: { money: { amount: retried.data.capture.amount, currency: "cad" } } },
      })
      expect(stale.data.message).toContain("the money is captured, and there is nothing to do")
      expect(simulator.contract(placed.reference)!.captured).toBe(retried.data.capture.amount)
    })
  },
}
