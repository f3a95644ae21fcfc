import type { AppSuite } from "../helpers/one-app"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import { parcels } from "../helpers/parcels"
import { orderChangeDriver, SOFA_AND_LAMPS_STORE } from "../helpers/order-changes"
import { placedOncePerSuite, placePayBrightOrder, SOFA_AND_THREE_LAMPS } from "../helpers/placed-order"
import { MathBN, Modules } from "@medusajs/framework/utils"
import { lenderAmount, toCents } from "../../src/lib/lender-cents"
import { totalOf } from "../../src/lib/totals"
import type { SeededStore } from "../../test-support/seed-store"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"
import { carryMissedContracts } from "../../src/sweeps/carry-missed-contracts"
import { carriedSessionRefused, holdWrites, refusedYet, refuseWrites } from "../helpers/database-faults"
import { eventually } from "../helpers/eventually"
import { PAYBRIGHT_MODULE } from "../../src/modules/paybright"
import type PayBrightModuleService from "../../src/modules/paybright/service"
import type { CardNetwork } from "./virtual-card.suite"
import { storeHeaders } from "../helpers/shopper"

/**
 * Medusa's own order changes on a PayBright order (return, exchange, claim, order edit), through
 * its Admin API: each ends by replacing a payment collection still authorized with a new one for
 * what is pending. The shopper's loan is never voided by it; the contract is carried into the new
 * collection for what the order still owes, and the merchant collects exactly that.
 */
export function orderChanges(...[mode, network]: ["in_store"] | ["virtual_card", CardNetwork]): AppSuite {
  /** Where the merchant captures by hand: an in-store registration that never captures by itself. */
  const inStoreOnly = mode === "in_store" ? it : it.skip

  return {
    title: `Medusa's order changes, ${mode === "in_store" ? "in store" : "through the virtual card"}`,
    tests: ({ api, getContainer }, lender) => {
      let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]

      beforeAll(async () => {
        ;({ simulator, store, admin } = await storeFixture(getContainer(), lender, SOFA_AND_LAMPS_STORE))
      })

      const { ship, captures } = parcels(api, () => ({ admin, store }))
      const {
        orderBooks,
        livePayments,
        until,
        requestReturn,
        receiveReturn,
        exchangeLamp,
        editQuantity,
        editQuantities,
      } = orderChangeDriver(api, () => ({ admin, store }))

      /** A sofa and three lamps, paid with the given PayBright registration. */
      const place = (providerId: string) =>
        placePayBrightOrder(api, getContainer(), store, simulator, admin, SOFA_AND_THREE_LAMPS, providerId)
      const placedOrder = placedOncePerSuite(
        () => ({ simulator, stripe: network?.stripe }),
        place,
        "pp_paybright_paybright"
      )

      /** The order's PayBright payments once the contract is carried into a live one, and what the lender holds. */
      function carried(orderId: string) {
        return until(orderId, () => true)
      }

      /** What Medusa captured on every payment of the order, in cents as the lender moves it (per payment). */
      function capturedCents(order: any) {
        return order.payment_collections
          .flatMap((collection: any) => collection.payments ?? [])
          .reduce((sum: bigint, payment: any) => sum + toCents(lenderAmount(totalOf(payment.captures))), 0n)
      }

      const everything = (order: any) => order.items.map((item: any) => ({ id: item.id, quantity: item.quantity }))

      inStoreOnly(
        "keeps the loan when a return is requested before anything is captured, and the merchant captures what the order owes",
        async () => {
          const placed = await placedOrder("pp_paybright_capture-manually")
          const lamp = placed.order.items.find((item: any) => item.quantity === 3)
          await ship(placed.order.id, everything(placed.order))
          const returnId = await requestReturn(placed.order.id, lamp.id, 1)
          const requested = await carried(placed.order.id)
          // Receiving it changes the order again: Medusa replaces the carried payment's collection too.
          await receiveReturn(returnId, lamp.id, 1)
          // Medusa writes the payment, then the collection's status: both are awaited.
          const books = await until(
            placed.order.id,
            (order) =>
              order.payment_collections.length === 3 &&
              order.payment_collections.some((collection: any) => collection.status === "authorized")
          )
          expect(livePayments(requested)[0].id).not.toBe(livePayments(books)[0].id)
          expect(simulator.contract(placed.reference)!.status).toBe("PENDING")
          const [live] = livePayments(books)
          const open = books.payment_collections.find((collection: any) => collection.status === "authorized")
          expect(live.amount).toBe(open.amount)
          expect(live.data.gateway_reference).toBe(placed.reference)
          expect(live.data.captured_before).toBe("0.00")
          expect(books.summary.pending_difference).toBe(open.amount)

          await api.post(`/admin/payments/${live.id}/capture`, {}, admin)
          const after = await orderBooks(placed.order.id)
          const lender = simulator.contract(placed.reference)!
          expect(toCents(lender.captured)).toBe(capturedCents(after))
          expect(lender.captured).toBe(lenderAmount(open.amount))
          expect(lender.status).toBe("Complete")
        }
      )

      it("after a partial capture, carries what the contract still covers and captures the rest at shipment", async () => {
        const { placed, lamp } = await partlyCaptured()
        const capturedFirst = simulator.contract(placed.reference)!.captured
        await requestReturn(placed.order.id, lamp.id, 1)

        const books = await carried(placed.order.id)
        const [live] = livePayments(books)
        expect(live.data.captured_before).toBe(capturedFirst)
        expect(live.amount).toBe(books.summary.pending_difference)

        await ship(placed.order.id, [{ id: lamp.id, quantity: 2 }])
        await captures(placed.order.id, 2)
        const after = await orderBooks(placed.order.id)
        const lender = simulator.contract(placed.reference)!
        expect(lender.status).not.toBe("VOIDED")
        expect(lender.captures).toHaveLength(2)
        expect(toCents(lender.captured)).toBe(capturedCents(after))
        // The panel tells the contract's whole story: both captures, from both payments.
        const { data } = await api.get(`/admin/paybright/orders/${placed.order.id}/panel`, admin)
        expect(data.panel.captured).toBe(lender.captured)
        expect(data.panel.records.filter((record: any) => record.kind === "capture")).toHaveLength(2)
        expect(data.panel.remaining).toBe("0.00")
        // The shopper keeps the sofa and two lamps: exactly what the order totals now, the lamp returned.
        const returned = after.items.reduce(
          (sum: any, item: any) => MathBN.add(sum, item.return_requested_total ?? 0),
          MathBN.convert(0)
        )
        expect(MathBN.gt(returned, 0)).toBe(true)
        expect(lender.captured).toBe(lenderAmount(MathBN.sub(after.total, returned)))
      })

      it("refunds a lamp returned after its capture from the payment that captured it", async () => {
        const placed = await placedOrder("pp_paybright_paybright")
        const lamp = placed.order.items.find((item: any) => item.quantity === 3)
        await ship(placed.order.id, everything(placed.order))
        await captures(placed.order.id, 1)
        const returnId = await requestReturn(placed.order.id, lamp.id, 1)
        await receiveReturn(returnId, lamp.id, 1)

        const books = await orderBooks(placed.order.id)
        // Captured in full, the collection is completed: Medusa replaces nothing, the order owes the shopper.
        expect(books.payment_collections).toHaveLength(1)
        expect(books.summary.pending_difference).toBeLessThan(0)
        const [payment] = books.payment_collections[0].payments
        const owed = -books.summary.pending_difference
        // In cents, as the merchant types it: the lender moves whole cents.
        await api.post(`/admin/payments/${payment.id}/refund`, { amount: Number(lenderAmount(owed)) }, admin)
        const lender = simulator.contract(placed.reference)!
        expect(lender.status).not.toBe("VOIDED")
        expect(lender.refunded).toBe(lenderAmount(owed))
        expect(lender.captured).toBe(lenderAmount(placed.order.total))
        // The lender keeps what the order totals now, the lamp returned.
        expect(toCents(lender.captured) - toCents(lender.refunded)).toBe(toCents(lenderAmount(books.total)))
      })

      /** The sofa and one lamp shipped (and captured at shipment): the order partly captured. */
      async function partlyCaptured() {
        const placed = await placedOrder("pp_paybright_paybright")
        const sofa = placed.order.items.find((item: any) => item.quantity === 1)
        const lamp = placed.order.items.find((item: any) => item.quantity === 3)
        await ship(placed.order.id, [
          { id: sofa.id, quantity: 1 },
          { id: lamp.id, quantity: 1 },
        ])
        await captures(placed.order.id, 1)
        return { placed, lamp }
      }

      /** After the change: the contract lives on in one live payment for what the order owes, never voided. */
      async function expectCarried(placed: { order: { id: string }; reference: string }) {
        const books = await carried(placed.order.id)
        const live = livePayments(books)
        expect(live).toHaveLength(1)
        expect(live[0].data.gateway_reference).toBe(placed.reference)
        expect(live[0].amount).toBe(books.summary.pending_difference)
        const contract = simulator.contract(placed.reference)!
        expect(contract.status).not.toBe("VOIDED")
        expect(live[0].data.captured_before).toBe(contract.captured)
        return live[0]
      }

      it("carries the contract through an exchange of a shipped lamp for another", async () => {
        const { placed, lamp } = await partlyCaptured()
        await exchangeLamp(placed.order.id, lamp.id)
        await expectCarried(placed)
      })

      it("carries the contract through a claim refunding a shipped lamp", async () => {
        const { placed, lamp } = await partlyCaptured()
        const { data } = await api.post("/admin/claims", { order_id: placed.order.id, type: "refund" }, admin)
        const claimId = data.claim.id
        await api.post(`/admin/claims/${claimId}/inbound/items`, { items: [{ id: lamp.id, quantity: 1 }] }, admin)
        await api.post(`/admin/claims/${claimId}/request`, {}, admin)
        await expectCarried(placed)
      })

      inStoreOnly(
        "carries the contract through an order edit down, and voids it once when the order is then cancelled",
        async () => {
          const placed = await placedOrder("pp_paybright_capture-manually")
          const lamp = placed.order.items.find((item: any) => item.quantity === 3)
          await editQuantity(placed.order.id, lamp.id, 1)

          const books = await carried(placed.order.id)
          const [live] = livePayments(books)
          expect(live.amount).toBe(books.total)
          expect(simulator.contract(placed.reference)!.status).toBe("PENDING")

          await api.post(`/admin/orders/${placed.order.id}/cancel`, {}, admin)
          const lender = simulator.contract(placed.reference)!
          expect(lender.status).toBe("VOIDED")
          expect(lender.captures).toHaveLength(0)
        }
      )

      inStoreOnly(
        "refunds what was captured and voids nothing when an order is cancelled after a capture and a carry",
        async () => {
          const { placed } = await capturedByHandThenEdited()
          const [carriedPayment] = livePayments(await carried(placed.order.id))
          expect(carriedPayment.data.captured_before).toBe("100.00")

          await api.post(`/admin/orders/${placed.order.id}/cancel`, {}, admin)
          expectRefundedInFull(placed.reference)
          const books = await orderBooks(placed.order.id)
          expect(livePayments(books)).toEqual([])
          const { data } = await api.get("/admin/paybright/attention", admin)
          expect(data.items.filter((item: any) => item.order_id === placed.order.id)).toEqual([])
        }
      )

      /** The carry's session is refused once: the carry after Medusa's event fails. */
      async function carryRefused(name: string) {
        const pg = getContainer().resolve("__pg_connection__")
        const restore = await refuseWrites(pg, carriedSessionRefused(name))
        return {
          /** Waits until the carry tried and failed, then takes the fault away. */
          async tried() {
            try {
              expect(await eventually(() => refusedYet(pg, name), true)).toBe(true)
            } finally {
              await restore()
            }
          },
        }
      }

      const voidsOf = async (contract: string) =>
        (
          await getContainer()
            .resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
            .listPayBrightMoneyRecords({ contract, kind: "void" })
        ).map((record) => record.state)

      inStoreOnly("voids the contract once when the order is cancelled before its contract is carried", async () => {
        const placed = await placedOrder("pp_paybright_capture-manually")
        const lamp = placed.order.items.find((item: any) => item.quantity === 3)
        const fault = await carryRefused("carry_before_cancel_dropped")
        await editQuantity(placed.order.id, lamp.id, 1)
        await fault.tried()
        // Medusa cancelled the payment the contract was authorized on; nothing holds it yet.
        expect(livePayments(await orderBooks(placed.order.id))).toEqual([])

        await api.post(`/admin/orders/${placed.order.id}/cancel`, {}, admin)
        const voided = () => Promise.resolve(simulator.contract(placed.reference)!.status)
        expect(await eventually(voided, "VOIDED")).toBe("VOIDED")
        expect(await eventually(() => voidsOf(placed.reference), ["done"])).toEqual(["done"])
        // The reconciliation's carry, later, neither carries nor voids again.
        expect(await carryMissedContracts(getContainer(), Date.now() + 5 * 60_000)).toBe(0)
        expect(await voidsOf(placed.reference)).toEqual(["done"])
        expect(livePayments(await orderBooks(placed.order.id))).toEqual([])
        const { data } = await api.get("/admin/paybright/attention", admin)
        expect(data.items.filter((item: any) => item.order_id === placed.order.id)).toEqual([])
      })

      it("carries the contract past any other PayBright session in the order's collection", async () => {
        const { placed, lamp } = await partlyCaptured()
        const fault = await carryRefused("carry_before_stray_dropped")
        await requestReturn(placed.order.id, lamp.id, 1)
        await fault.tried()
        const [, open] = (await orderBooks(placed.order.id)).payment_collections
        // The shopper cannot open an application on the order's collection through the Store API.
        const shopper = await api.post(
          `/store/payment-collections/${open.id}/payment-sessions`,
          { provider_id: "pp_paybright_paybright" },
          { ...storeHeaders(store), validateStatus: () => true }
        )
        expect(shopper.status).toBe(400)
        expect(shopper.data.message).toContain("PayBright")
        // A session the carry did not open for this amount (a process stopped before authorizing it, the order changed since).
        const payments = getContainer().resolve(Modules.PAYMENT)
        const stray = await payments.createPaymentSession(open.id, {
          provider_id: "pp_paybright_paybright",
          currency_code: "cad",
          amount: 1,
          data: { carried_contract: placed.reference },
        })

        expect(await carryMissedContracts(getContainer(), Date.now() + 5 * 60_000)).toBe(1)
        const live = await expectCarried(placed)
        const sessions = await payments.listPaymentSessions({ payment_collection_id: open.id })
        expect(sessions.map((session) => session.id)).not.toContain(stray.id)
        // The rest ships and is captured from the carried payment.
        await ship(placed.order.id, [{ id: lamp.id, quantity: 1 }])
        await captures(placed.order.id, 2)
        const after = await orderBooks(placed.order.id)
        expect(livePayments(after).map((payment: any) => payment.id)).toEqual([live.id])
        expect(toCents(simulator.contract(placed.reference)!.captured)).toBe(capturedCents(after))
      })

      inStoreOnly("refuses Medusa's own capture above what the order owes after an edit down", async () => {
        const placed = await placedOrder("pp_paybright_capture-manually")
        const sofa = placed.order.items.find((item: any) => item.quantity === 1)
        const lamp = placed.order.items.find((item: any) => item.quantity === 3)
        const [payment] = livePayments(await orderBooks(placed.order.id))
        await api.post(`/admin/payments/${payment.id}/capture`, { amount: 100 }, admin)
        // The sofa and two lamps come off in one edit: the order now totals less than the 100.00 captured.
        await editQuantities(placed.order.id, [
          [sofa.id, 0],
          [lamp.id, 1],
        ])
        const books = await orderBooks(placed.order.id)
        expect(books.summary.pending_difference).toBeLessThan(0)
        expect(livePayments(books).map((live: any) => live.id)).toEqual([payment.id])

        const refused = await api.post(
          `/admin/payments/${payment.id}/capture`,
          { amount: 50 },
          {
            ...admin,
            validateStatus: () => true,
          }
        )
        expect(refused.status).toBe(400)
        expect(refused.data.message).toContain("the order owes nothing more that this PayBright payment may capture")
        // The sentence as facts too, for the admin to write in the merchant's language.
        expect(refused.data.said).toEqual({ code: "capture_nothing_owed" })
        const whole = await api.post(
          `/admin/payments/${payment.id}/capture`,
          {},
          { ...admin, validateStatus: () => true }
        )
        expect(whole.status).toBe(400)
        expect(simulator.contract(placed.reference)!.captured).toBe("100.00")
      })

      inStoreOnly(
        "keeps the payment a capture is under way on when an order change replaces its collection",
        async () => {
          const placed = await placedOrder("pp_paybright_capture-manually")
          const lamp = placed.order.items.find((item: any) => item.quantity === 3)
          const pg = getContainer().resolve("__pg_connection__")
          // Medusa's "Capture" has the payment's lock and is writing its Capture row, which the
          // provider has not seen yet, when the edit is confirmed.
          const row = await holdWrites(pg, {
            name: "capture_row_held",
            table: "capture",
            when: `new.payment_id = '${placed.payment.id}'`,
          })
          let capture: Promise<{ status: number }> | undefined
          try {
            capture = api.post(`/admin/payments/${placed.payment.id}/capture`, { amount: 100 }, admin)
            expect(await eventually(row.heldYet, true)).toBe(true)
            await editQuantity(placed.order.id, lamp.id, 2)
            // Medusa's cancellation of the payment is refused while the capture holds it.
            expect(livePayments(await orderBooks(placed.order.id)).map((payment: any) => payment.id)).toEqual([
              placed.payment.id,
            ])
          } finally {
            await row.release()
          }
          expect((await capture!).status).toBe(200)
          const books = await orderBooks(placed.order.id)
          // The capture is booked on the payment it was made on, which Medusa kept: nothing is carried past it.
          expect(livePayments(books).map((payment: any) => payment.id)).toEqual([placed.payment.id])
          expect(simulator.contract(placed.reference)!.captured).toBe("100.00")
          expect(toCents(simulator.contract(placed.reference)!.captured)).toBe(capturedCents(books))

          // The rest of what the order owes is captured from that payment, never more.
          const owed = lenderAmount(books.summary.pending_difference)
          await api.post(`/admin/payments/${placed.payment.id}/capture`, { amount: Number(owed) }, admin)
          const after = await orderBooks(placed.order.id)
          expect(simulator.contract(placed.reference)!.captured).toBe(lenderAmount(after.total))
          expect(toCents(simulator.contract(placed.reference)!.captured)).toBe(capturedCents(after))
        }
      )

      it("closes a parcel's refused capture on the replaced payment once the carried payment took its money", async () => {
        const placed = await placedOrder("pp_paybright_paybright")
        const lamp = placed.order.items.find((item: any) => item.quantity === 3)
        // Every carry fails while the database refuses the carry's session: the one after Medusa's
        // event, and the one the parcel's capture tries first.
        const restore = await refuseWrites(
          getContainer().resolve("__pg_connection__"),
          carriedSessionRefused("carries_refused", false)
        )
        let refused: any
        try {
          await editQuantity(placed.order.id, lamp.id, 2)
          await ship(placed.order.id, everything(await orderBooks(placed.order.id)))
          ;[refused] = await captures(placed.order.id, 1, { booked: false })
        } finally {
          await restore()
        }
        expect(refused.state).toBe("refused")
        const listed = async () =>
          (await api.get("/admin/paybright/attention", admin)).data.items
            .filter((item: any) => item.order_id === placed.order.id)
            .map((item: any) => item.kind)
        expect(await listed()).toEqual(["refused_capture"])

        expect(await carryMissedContracts(getContainer(), Date.now() + 5 * 60_000)).toBe(1)
        const live = await expectCarried(placed)
        // The merchant takes the parcel's money from the carried payment with Medusa's own Capture.
        await api.post(`/admin/payments/${live.id}/capture`, {}, admin)
        const books = await orderBooks(placed.order.id)
        expect(toCents(simulator.contract(placed.reference)!.captured)).toBe(capturedCents(books))
        expect(simulator.contract(placed.reference)!.captured).toBe(lenderAmount(books.total))
        expect(await listed()).toEqual([])
        const { data } = await api.get(`/admin/paybright/orders/${placed.order.id}/panel`, admin)
        const record = data.panel.records.find((row: any) => row.id === refused.id)
        expect(record.actions).toEqual([])
      })

      /** Part of the contract captured (the 100.00 of capturedByHandThenEdited), it cannot be voided: what was captured is refunded, the rest lapses. */
      function expectRefundedInFull(contract: string) {
        const lender = simulator.contract(contract)!
        expect(lender.status).not.toBe("VOIDED")
        expect({ captured: lender.captured, refunded: lender.refunded }).toEqual({
          captured: "100.00",
          refunded: "100.00",
        })
      }

      /** A manual order, 100.00 captured by hand, then two lamps taken off it: its contract is carried on. */
      async function capturedByHandThenEdited() {
        const placed = await placedOrder("pp_paybright_capture-manually")
        const lamp = placed.order.items.find((item: any) => item.quantity === 3)
        const [first] = livePayments(await orderBooks(placed.order.id))
        await api.post(`/admin/payments/${first.id}/capture`, { amount: 100 }, admin)
        await editQuantity(placed.order.id, lamp.id, 1)
        return { placed, first }
      }

      inStoreOnly(
        "refuses to cancel an order while a refund on the payment an order change replaced is in doubt",
        async () => {
          const { placed, first } = await capturedByHandThenEdited()
          await carried(placed.order.id)
          // The lender makes the refund on the replaced payment but the answer is lost: in doubt.
          simulator.injectFault(placed.reference, { operation: "refund", kind: "reset_after_read" })
          const lost = await api.post(
            `/admin/payments/${first.id}/refund`,
            { amount: 40 },
            { ...admin, validateStatus: () => true }
          )
          expect(lost.status).toBe(400)
          const records = getContainer().resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
          const [doubt] = await records.listPayBrightMoneyRecords({ contract: placed.reference, state: "in_doubt" })
          expect(doubt).toMatchObject({ kind: "refund", payment_id: first.id })

          const refused = await api.post(
            `/admin/orders/${placed.order.id}/cancel`,
            {},
            { ...admin, validateStatus: () => true }
          )
          expect(refused.status).toBe(400)
          expect(refused.data.message).toContain(doubt.id)
          expect((await orderBooks(placed.order.id)).status).not.toBe("canceled")
          // Resolved as the portal shows, the order cancels: what was captured and not refunded goes back.
          await api.post(`/admin/paybright/records/${doubt.id}/resolve`, { lender_shows: "done" }, admin)
          await api.post(`/admin/orders/${placed.order.id}/cancel`, {}, admin)
          expectRefundedInFull(placed.reference)
        }
      )

      it("keeps the carried payment when giving back the carry's lock fails", async () => {
        const { placed, lamp } = await partlyCaptured()
        const pg = getContainer().resolve("__pg_connection__")
        const restore = await refuseWrites(pg, {
          name: "carry_lock_kept_once",
          table: "locking",
          event: "delete",
          when: `old.id = 'paybright-carry:${placed.order.id}'`,
          once: true,
          message: "the database dropped the write",
        })
        try {
          await requestReturn(placed.order.id, lamp.id, 1)
          const live = await expectCarried(placed)
          // Giving the lock back was refused (the carry's last step), and the session the payment was made from is still there.
          const fired = async () =>
            (await pg.raw(`select is_called from paybright_test_carry_lock_kept_once`)).rows[0].is_called
          expect(await eventually(fired, true)).toBe(true)
          const payment = await getContainer()
            .resolve(Modules.PAYMENT)
            .retrievePayment(live.id, { relations: ["payment_session"] })
          expect(payment.payment_session?.status).toBe("authorized")
        } finally {
          await restore()
        }
      })

      it("carries the contract at the reconciliation when the carry on Medusa's event failed", async () => {
        const { placed, lamp } = await partlyCaptured()
        // The carry's session is refused once, as a blink of the database would refuse it.
        const fault = await carryRefused("carried_session_dropped_once")
        await requestReturn(placed.order.id, lamp.id, 1)
        await fault.tried()
        expect(livePayments(await orderBooks(placed.order.id))).toEqual([])
        // The reconciliation job, past the moment the event's carry had.
        expect(await carryMissedContracts(getContainer(), Date.now() + 5 * 60_000)).toBe(1)
        await expectCarried(placed)
        expect(await carryMissedContracts(getContainer(), Date.now() + 5 * 60_000)).toBe(0)
      })

      it("keeps a payment whose capture is in doubt through a return, for the person's answer", async () => {
        const placed = await placedOrder("pp_paybright_paybright")
        const lamp = placed.order.items.find((item: any) => item.quantity === 3)
        const pg = getContainer().resolve("__pg_connection__")
        // The parcel's capture is made, then Medusa fails to write it: the record is in doubt.
        const restore = await refuseWrites(pg, {
          name: "captured_payment_update_dropped_once",
          table: "payment",
          event: "update",
          once: true,
          message: "the database dropped the write",
        })
        const records = getContainer().resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
        const inDoubt = async () =>
          (await records.listPayBrightMoneyRecords({ contract: placed.reference, kind: "capture", state: "in_doubt" }))
            .length
        try {
          await ship(placed.order.id, everything(placed.order))
          expect(await eventually(inDoubt, 1)).toBe(1)
        } finally {
          await restore()
        }
        const [doubt] = await records.listPayBrightMoneyRecords({ contract: placed.reference, state: "in_doubt" })
        expect(lenderAmount(simulator.contract(placed.reference)!.captured)).toBe(lenderAmount(doubt.amount as never))

        // Medusa replaces the collection; the payment the answer must be recorded on stays.
        await requestReturn(placed.order.id, lamp.id, 1)
        const books = await orderBooks(placed.order.id)
        expect(livePayments(books).map((payment: any) => payment.id)).toEqual([placed.payment.id])
        expect(simulator.contract(placed.reference)!.status).not.toBe("VOIDED")

        // The portal shows the capture made: Medusa records it on that payment, and the books agree.
        await api.post(`/admin/paybright/records/${doubt.id}/resolve`, { lender_shows: "done" }, admin)
        const after = await orderBooks(placed.order.id)
        expect(capturedCents(after)).toBe(toCents(simulator.contract(placed.reference)!.captured))
        expect(after.summary.pending_difference).toBeLessThan(0)
      })

      it("offers nothing more to capture once an edit lowers the order to what is captured", async () => {
        const placed = await placedOrder("pp_paybright_paybright")
        const sofa = placed.order.items.find((item: any) => item.quantity === 1)
        const lamp = placed.order.items.find((item: any) => item.quantity === 3)
        await ship(placed.order.id, [{ id: sofa.id, quantity: 1 }])
        await captures(placed.order.id, 1)
        // The lamps come off the order: it owes nothing more, and Medusa replaces no payment.
        await editQuantity(placed.order.id, lamp.id, 0)
        const books = await orderBooks(placed.order.id)
        expect(books.summary.pending_difference).toBe(0)
        expect(livePayments(books)).toHaveLength(1)

        const { data } = await api.get(`/admin/paybright/orders/${placed.order.id}/panel`, admin)
        expect(data.panel.remaining).toBe("0.00")
        expect(data.panel.actions.capture_remainder).toBe(false)
        const { data: attention } = await api.get("/admin/paybright/attention", admin)
        expect(attention.items.filter((item: any) => item.order_id === placed.order.id)).toEqual([])
      })

      it("carries no more than the contract covers after an order edit up, and says what is left to collect", async () => {
        const placed = await placedOrder("pp_paybright_paybright")
        const lamp = placed.order.items.find((item: any) => item.quantity === 3)
        await editQuantity(placed.order.id, lamp.id, 5)

        const books = await carried(placed.order.id)
        const [live] = livePayments(books)
        expect(live.amount).toBe(Number(simulator.contract(placed.reference)!.authorized))
        expect(books.summary.pending_difference).toBeGreaterThan(live.amount)
        // The order's PayBright timeline says what happened and what is left to do.
        const { data } = await api.get(`/admin/paybright/orders/${placed.order.id}/panel`, admin)
        const carriedEntry = data.panel.timeline.find((entry: any) => entry.kind === "contract.carried")
        expect(carriedEntry.message).toContain(`PayBright contract ${placed.reference} carries on`)
        expect(carriedEntry.message).toContain("is above what the contract covers: collect it another way")
        // Needs attention lists it until it is collected: what the order owes beyond the contract.
        const { data: attention } = await api.get("/admin/paybright/attention", admin)
        const listed = attention.items.filter((item: any) => item.order_id === placed.order.id)
        expect(listed).toMatchObject([
          {
            kind: "uncovered_balance",
            contract: placed.reference,
            amount: lenderAmount(MathBN.sub(books.summary.pending_difference, live.amount)),
          },
        ])
      })
    },
  }
}
