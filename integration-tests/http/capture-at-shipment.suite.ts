import { MathBN, Modules } from "@medusajs/framework/utils"
import type { AppSuite } from "../helpers/one-app"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import { reportExpiringAuthorizations } from "../../src/lib/authorization-expiry"
import captureOnFulfillment from "../../src/subscribers/paybright-capture-on-fulfillment"
import paybrightCaptureMissedParcels from "../../src/jobs/paybright-capture-missed-parcels"
import { holdWrites } from "../helpers/database-faults"
import { medusaTotals } from "../helpers/ledger"
import { until } from "../helpers/medusa-exec"
import { lenderAmount } from "../../src/lib/lender-cents"
import { parcels } from "../helpers/parcels"
import { placedOncePerSuite, placePayBrightOrder, SOFA_AND_THREE_LAMPS } from "../helpers/placed-order"
import type { SeededStore } from "../../test-support/seed-store"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"

/**
 * Each parcel captured as it ships, through the default registration and through the app's two
 * other PayBright registrations, one that captures at fulfillment and one that never captures by itself.
 */
export const captureAtShipment: AppSuite = {
  title: "capture at shipment",
  tests: ({ api, getContainer }, lender) => {
    let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]

    beforeAll(async () => {
      ;({ simulator, store, admin } = await storeFixture(getContainer(), lender, {
        providerIds: ["pp_paybright_paybright", "pp_paybright_on-fulfillment", "pp_paybright_capture-manually"],
        prices: [565, 33.3333, 89.95],
        shippingPrice: 25,
      }))
    })

    /** A placed order of a sofa and three lamps, paid with the given PayBright registration. */
    const placedOrder = placedOncePerSuite(
      () => ({ simulator }),
      (providerId: string = "pp_paybright_paybright") =>
        placePayBrightOrder(api, getContainer(), store, simulator, admin, SOFA_AND_THREE_LAMPS, providerId)
    )

    const { fulfill, ship, captures } = parcels(api, () => ({ admin, store }))

    async function expectLedgersAgree(paymentId: string, reference: string) {
      const medusa = await medusaTotals(getContainer(), paymentId)
      const lender = simulator.contract(reference)!
      expect({ captured: medusa.captured, refunded: medusa.refunded, captures: medusa.captures }).toEqual({
        captured: lender.captured,
        refunded: lender.refunded,
        captures: lender.captures.map((capture) => capture.amount),
      })
      return medusa
    }

    it("captures the whole order when it ships in one parcel", async () => {
      const { order, payment, reference } = await placedOrder()
      await ship(
        order.id,
        order.items.map((item: any) => ({ id: item.id, quantity: item.quantity }))
      )
      const [capture] = await captures(order.id, 1)
      expect(capture).toMatchObject({
        state: "done",
        trigger: "shipment",
        reference: expect.stringMatching(/^payses_/),
      })
      expect(capture.lender_evidence).toMatchObject({ x_result: "Completed", x_gateway_reference: reference })
      const medusa = await expectLedgersAgree(payment.id, reference)
      expect(medusa.captured).toBe(MathBN.convert(order.total).toFixed(2))
    })

    it("captures each of two parcels as it ships, summing to the order total to the cent", async () => {
      const { order, payment, reference } = await placedOrder()
      const sofa = order.items.find((item: any) => item.title === "Sofa")
      const lamps = order.items.find((item: any) => item.title !== "Sofa")
      await ship(order.id, [{ id: lamps.id, quantity: 3 }])
      const [first] = await captures(order.id, 1)
      // Three lamps at 33.3333 with 13% tax (113.00) and the shipping with the first parcel (28.25).
      expect(MathBN.convert(first.amount).toFixed(2)).toBe("141.25")
      await ship(order.id, [{ id: sofa.id, quantity: 1 }])
      await captures(order.id, 2)
      const medusa = await expectLedgersAgree(payment.id, reference)
      expect(medusa.captures).toHaveLength(2)
      expect(medusa.captured).toBe(MathBN.convert(order.total).toFixed(2))
    })

    it("captures at fulfillment for captureOn fulfillment, and never by itself for captureOn manual", async () => {
      const onFulfillment = await placedOrder("pp_paybright_on-fulfillment")
      await fulfill(
        onFulfillment.order.id,
        onFulfillment.order.items.map((item: any) => ({ id: item.id, quantity: item.quantity }))
      )
      const [capture] = await captures(onFulfillment.order.id, 1)
      expect(capture).toMatchObject({ state: "done", trigger: "fulfillment" })
      await expectLedgersAgree(onFulfillment.payment.id, onFulfillment.reference)

      const manual = await placedOrder("pp_paybright_capture-manually")
      await ship(
        manual.order.id,
        manual.order.items.map((item: any) => ({ id: item.id, quantity: item.quantity }))
      )
      await new Promise((resolve) => setTimeout(resolve, 1500))
      const { data } = await api.get(`/admin/paybright/orders/${manual.order.id}/captures`, admin)
      expect(data.captures).toEqual([])
      expect(simulator.contract(manual.reference)!.captured).toBe("0.00")
    })

    it("captures once when the shipment event arrives several times at once", async () => {
      const { order, payment, reference } = await placedOrder()
      const fulfillmentId = await ship(
        order.id,
        order.items.map((item: any) => ({ id: item.id, quantity: item.quantity }))
      )
      const event = { name: "shipment.created", data: { id: fulfillmentId } }
      await Promise.all(
        [1, 2, 3].map(() => captureOnFulfillment({ event, container: getContainer(), pluginOptions: {} } as never))
      )
      const recorded = await captures(order.id, 1)
      expect(recorded).toHaveLength(1)
      const medusa = await expectLedgersAgree(payment.id, reference)
      expect(medusa.captures).toHaveLength(1)
    })

    it("captures each parcel once, at the moment its payment was authorized with, whatever captureOn says later", async () => {
      const settings = (captureOn: string) =>
        api.post("/admin/paybright/settings/pp_paybright_paybright", { captureOn }, admin)
      const itemsOf = (order: any) => order.items.map((item: any) => ({ id: item.id, quantity: item.quantity }))
      /** What the subscriber does for a parcel's event (its own run by the event bus comes too). */
      const handled = (name: string, fulfillmentId: string) =>
        captureOnFulfillment({
          event: {
            name,
            data: name === "shipment.created" ? { id: fulfillmentId } : { fulfillment_id: fulfillmentId },
          },
          container: getContainer(),
          pluginOptions: {},
        } as never)
      try {
        // Authorized while the store captured at fulfillment: packed and captured; then the merchant
        // switches to capture at shipment and ships that same parcel. It is not captured again.
        expect((await settings("fulfillment")).status).toBe(200)
        // Named, so that it is placed now, under the setting just saved.
        const packedFirst = await placedOrder("pp_paybright_paybright")
        const parcel = await fulfill(packedFirst.order.id, itemsOf(packedFirst.order))
        await captures(packedFirst.order.id, 1)
        expect((await settings("shipment")).status).toBe(200)
        await api.post(
          `/admin/orders/${packedFirst.order.id}/fulfillments/${parcel}/shipments`,
          { items: itemsOf(packedFirst.order) },
          admin
        )
        await handled("shipment.created", parcel)
        expect(await captures(packedFirst.order.id, 1)).toHaveLength(1)
        expect(simulator.contract(packedFirst.reference)!.captures).toHaveLength(1)
        await expectLedgersAgree(packedFirst.payment.id, packedFirst.reference)

        // Authorized while capturing at shipment; packed, switched to fulfillment, then shipped: the
        // parcel is captured once, at its shipment.
        const shippedLater = await placedOrder()
        const second = await fulfill(shippedLater.order.id, itemsOf(shippedLater.order))
        expect((await settings("fulfillment")).status).toBe(200)
        await handled("order.fulfillment_created", second)
        await api.post(
          `/admin/orders/${shippedLater.order.id}/fulfillments/${second}/shipments`,
          { items: itemsOf(shippedLater.order) },
          admin
        )
        const [capture, ...more] = await captures(shippedLater.order.id, 1)
        expect(more).toEqual([])
        expect(capture).toMatchObject({ state: "done", trigger: "shipment" })
        await expectLedgersAgree(shippedLater.payment.id, shippedLater.reference)
      } finally {
        await settings("shipment")
      }
    })

    it("captures a parcel whose shipment event was never handled, in the reconciliation job, once", async () => {
      const { order, payment, reference } = await placedOrder()
      const fulfillmentId = await fulfill(
        order.id,
        order.items.map((item: any) => ({ id: item.id, quantity: item.quantity }))
      )
      // Shipped as Medusa's module records it, with no shipment.created reaching a subscriber.
      const shippedAt = async (minutesAgo: number) =>
        getContainer()
          .resolve(Modules.FULFILLMENT)
          .updateFulfillment(fulfillmentId, { shipped_at: new Date(Date.now() - minutesAgo * 60_000) })
      const recordsNow = async () =>
        (await api.get(`/admin/paybright/orders/${order.id}/captures`, admin)).data.captures as any[]
      await shippedAt(0)
      await paybrightCaptureMissedParcels(getContainer())
      // Within the grace the event may still be on its way: the subscriber's to capture.
      expect(await recordsNow()).toEqual([])
      await shippedAt(10)
      await paybrightCaptureMissedParcels(getContainer())
      const [capture] = await captures(order.id, 1)
      expect(capture).toMatchObject({ state: "done", trigger: "shipment" })
      await paybrightCaptureMissedParcels(getContainer())
      expect(await recordsNow()).toHaveLength(1)
      const medusa = await expectLedgersAgree(payment.id, reference)
      expect(medusa.captures).toHaveLength(1)
      expect(medusa.captured).toBe(MathBN.convert(order.total).toFixed(2))
    })

    it("keeps the shipment when the lender refuses the capture, shows why, and captures on retry", async () => {
      const { order, payment, reference } = await placedOrder()
      simulator.failNext(reference, { operation: "capture", status: 400, message: "Contract under review" })
      await ship(
        order.id,
        order.items.map((item: any) => ({ id: item.id, quantity: item.quantity }))
      )
      const [failed] = await captures(order.id, 1)
      expect(failed.state).toBe("refused")
      expect(failed.message).toContain("Contract under review")
      expect(failed.message).toContain("nothing moved")
      const { data } = await api.get(`/admin/orders/${order.id}?fields=fulfillments.shipped_at`, admin)
      expect(data.order.fulfillments[0].shipped_at).toBeTruthy()
      expect((await medusaTotals(getContainer(), payment.id)).captured).toBe("0.00")

      const retried = await api.post(`/admin/paybright/captures/${failed.id}/retry`, {}, admin)
      expect(retried.data.capture.status).toBe("done")
      const medusa = await expectLedgersAgree(payment.id, reference)
      expect(medusa.captured).toBe(MathBN.convert(order.total).toFixed(2))
    })

    it("captures only what each parcel carries when two parcels are packed before either ships", async () => {
      const { order, payment, reference } = await placedOrder()
      const sofa = order.items.find((item: any) => item.title === "Sofa")
      const lamps = order.items.find((item: any) => item.title !== "Sofa")
      const lampsParcel = await fulfill(order.id, [{ id: lamps.id, quantity: 3 }])
      const sofaParcel = await fulfill(order.id, [{ id: sofa.id, quantity: 1 }])
      // The sofa ships first while the lamps are only packed: it is not "everything that remains".
      await api.post(
        `/admin/orders/${order.id}/fulfillments/${sofaParcel}/shipments`,
        { items: [{ id: sofa.id, quantity: 1 }] },
        admin
      )
      const [first] = await captures(order.id, 1)
      // The sofa (565.00 with 13% tax: 638.45) and the shipping (28.25) with the first capture.
      expect(first.amount).toBe("666.70")
      await api.post(
        `/admin/orders/${order.id}/fulfillments/${lampsParcel}/shipments`,
        { items: [{ id: lamps.id, quantity: 3 }] },
        admin
      )
      await captures(order.id, 2)
      const medusa = await expectLedgersAgree(payment.id, reference)
      expect(medusa.captures).toEqual([
        "666.70",
        MathBN.sub(MathBN.convert(order.total).toFixed(2), "666.70").toFixed(2),
      ])
    })

    /** One lamp of three taken off the order through Medusa's order edit, confirmed; answers the edit. */
    async function removeOneLamp(orderId: string, lampsId: string) {
      const { data: edit } = await api.post(`/admin/order-edits`, { order_id: orderId }, admin)
      await api.post(`/admin/order-edits/${orderId}/items/item/${lampsId}`, { quantity: 2 }, admin)
      await api.post(`/admin/order-edits/${orderId}/request`, {}, admin)
      await api.post(`/admin/order-edits/${orderId}/confirm`, {}, admin)
      return edit
    }

    /**
     * Ships the two lamps left after the edit: the lender holds the sofa's 666.70 and then what the
     * edited order still owed, its total in all. Answers that total.
     */
    async function expectLampsLeftCapturedToEditedTotal(orderId: string, lampsId: string, reference: string) {
      const { data: edited } = await api.get(`/admin/orders/${orderId}?fields=total`, admin)
      await ship(orderId, [{ id: lampsId, quantity: 2 }])
      const [, last] = await captures(orderId, 2)
      expect(last).toMatchObject({ state: "done", trigger: "shipment" })
      const lender = simulator.contract(reference)!
      expect(lender.captures.map((capture) => capture.amount)).toEqual([
        "666.70",
        lenderAmount(MathBN.sub(edited.order.total, "666.70")),
      ])
      expect(lender.captured).toBe(lenderAmount(edited.order.total))
      return edited.order.total
    }

    it("captures no more than the edited order's total when an item is removed before the last shipment", async () => {
      const { order, payment, reference } = await placedOrder()
      const sofa = order.items.find((item: any) => item.title === "Sofa")
      const lamps = order.items.find((item: any) => item.title !== "Sofa")
      await ship(order.id, [{ id: sofa.id, quantity: 1 }])
      await captures(order.id, 1)
      // One lamp of three is taken off the order before the rest ships.
      const edit = await removeOneLamp(order.id, lamps.id)
      expect(edit.order_change.order_id).toBe(order.id)
      // Medusa cancels the authorized remainder on an edit and opens a collection for what the
      // order owes: the contract is carried into it, and the last parcel, shipped at once, is
      // captured from there.
      const editedTotal = await expectLampsLeftCapturedToEditedTotal(order.id, lamps.id, reference)
      expect(MathBN.lt(editedTotal, order.total)).toBe(true)
      expect((await medusaTotals(getContainer(), payment.id)).captured).toBe("666.70")
    })

    it("captures no more than the edited order's total when the edit is confirmed before Medusa books the first capture", async () => {
      const { order, reference } = await placedOrder()
      const sofa = order.items.find((item: any) => item.title === "Sofa")
      const lamps = order.items.find((item: any) => item.title !== "Sofa")
      const booking = await holdWrites(getContainer().resolve("__pg_connection__"), {
        name: "capture_booked_late",
        table: "order_transaction",
        when: "new.reference = 'capture'",
      })
      try {
        await ship(order.id, [{ id: sofa.id, quantity: 1 }])
        await captures(order.id, 1, { booked: false })
        await until(booking.heldYet, 10_000, () => "Medusa never booked the sofa's capture on the order")
        // The lender captured the sofa; Medusa has not booked it on the order when the edit is confirmed,
        // so it opens the new collection for the whole edited total, which the contract cannot cover.
        await removeOneLamp(order.id, lamps.id)
      } finally {
        await booking.release()
      }
      await expectLampsLeftCapturedToEditedTotal(order.id, lamps.id, reference)
    })

    it("refunds across captures, never more than captured, and the ledgers agree", async () => {
      const { order, payment, reference } = await placedOrder()
      const lamps = order.items.find((item: any) => item.title !== "Sofa")
      await ship(order.id, [{ id: lamps.id, quantity: 3 }])
      await captures(order.id, 1)
      const captured = (await medusaTotals(getContainer(), payment.id)).captured
      expect(captured).toBe("141.25")
      await api.post(`/admin/payments/${payment.id}/refund`, { amount: 41.25 }, admin)
      const tooMuch = await api.post(
        `/admin/payments/${payment.id}/refund`,
        { amount: 100.01 },
        { ...admin, validateStatus: () => true }
      )
      expect(tooMuch.status).toBe(400)
      await api.post(`/admin/payments/${payment.id}/refund`, { amount: 100 }, admin)
      const medusa = await expectLedgersAgree(payment.id, reference)
      expect(medusa.refunded).toBe("141.25")
    })

    /** Neither the expiry job (run at `at`) nor the admin's authorizations list the order. */
    async function expectNotListed(orderId: string, at: Date) {
      expect((await reportExpiringAuthorizations(getContainer(), at)).map((entry) => entry.order_id)).not.toContain(
        orderId
      )
      expect(
        (await api.get("/admin/paybright/authorizations", admin)).data.authorizations.map(
          (entry: any) => entry.order_id
        )
      ).not.toContain(orderId)
    }

    it("reports authorizations left uncaptured close to the lender's 30-day limit, in the job and the admin", async () => {
      const { order, payment, reference } = await placedOrder()
      const in26Days = new Date(Date.now() + 26 * 24 * 60 * 60 * 1000)
      const expiring = await reportExpiringAuthorizations(getContainer(), in26Days)
      expect(expiring.map((entry) => entry.order_id)).toContain(order.id)
      expect(expiring.find((entry) => entry.order_id === order.id)!.uncaptured).toBe(
        MathBN.convert(order.total).toFixed(2)
      )
      expect(
        (await reportExpiringAuthorizations(getContainer(), new Date(Date.now() + 10 * 24 * 60 * 60 * 1000))).map(
          (entry) => entry.order_id
        )
      ).not.toContain(order.id)

      // The admin lists it today, not yet expiring, with the day PayBright cancels it.
      const { data } = await api.get("/admin/paybright/authorizations", admin)
      const listed = data.authorizations.find((entry: any) => entry.order_id === order.id)
      expect(listed).toMatchObject({
        payment_id: payment.id,
        order_display_id: order.display_id,
        uncaptured: MathBN.convert(order.total).toFixed(2),
        currency_code: "cad",
        age_days: 0,
        expiring: false,
      })
      expect(new Date(listed.expires_at).getTime() - new Date(listed.authorized_at).getTime()).toBe(
        30 * 24 * 60 * 60 * 1000
      )
      await expect(api.get("/admin/paybright/authorizations")).rejects.toMatchObject({ response: { status: 401 } })

      // A partial capture leaves the remainder listed; the last parcel removes it.
      const [first, ...rest] = order.items
      await ship(order.id, [{ id: first.id, quantity: first.quantity }])
      await captures(order.id, 1)
      const remainder = (await api.get("/admin/paybright/authorizations", admin)).data.authorizations.find(
        (entry: any) => entry.order_id === order.id
      )
      const captured = (await medusaTotals(getContainer(), payment.id)).captured
      expect(remainder.uncaptured).toBe(MathBN.sub(order.total, captured).toFixed(2))
      await ship(
        order.id,
        rest.map((item: any) => ({ id: item.id, quantity: item.quantity }))
      )
      await captures(order.id, 2)
      await expectNotListed(order.id, in26Days)
      await expectLedgersAgree(payment.id, reference)
    })

    it("offers nothing more to capture, in the job, the admin or the panel, once the order is cancelled after a capture", async () => {
      const { order, payment, reference } = await placedOrder()
      // The merchant captures a deposit by hand before anything ships.
      await api.post(`/admin/payments/${payment.id}/capture`, { amount: 100 }, admin)

      // Medusa's Cancel refunds what was captured; the rest of the authorization lapses at the lender.
      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin)
      const medusa = await expectLedgersAgree(payment.id, reference)
      expect(medusa.refunded).toBe(medusa.captured)
      expect(simulator.contract(reference)!.status).not.toBe("VOIDED")

      const in26Days = new Date(Date.now() + 26 * 24 * 60 * 60 * 1000)
      await expectNotListed(order.id, in26Days)
      const { data } = await api.get(`/admin/paybright/orders/${order.id}/panel`, admin)
      expect(data.panel.remaining).toBe("0.00")
    })
  },
}
