import { MathBN } from "@medusajs/framework/utils"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import { lenderAmount } from "../../src/lib/lender-cents"
import { QUEBEC_SHOPPER_ADDRESS } from "../../test-support/shopper-address"
import type { AppSuite } from "../helpers/one-app"
import { eventually } from "../helpers/eventually"
import { medusaTotals } from "../helpers/ledger"
import { parcels } from "../helpers/parcels"
import { placedOncePerSuite, placePayBrightOrder } from "../helpers/placed-order"
import type { SeededStore } from "../../test-support/seed-store"
import { cartReadyForPayment, storeHeaders, type Shopper } from "../helpers/shopper"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"

const QUEBEC = { address: QUEBEC_SHOPPER_ADDRESS }

/**
 * A Canadian merchant's day with sales tax: a Quebec shopper pays 5 % GST and 9.975 % QST, so
 * Medusa's totals carry fractions of a cent, and the lender moves cents.
 */
export const salesTax: AppSuite = {
  title: "sales tax to the fraction of a cent",
  tests: ({ api, getContainer }, lender) => {
    let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]
    const { ship, captures } = parcels(api, () => ({ admin, store }))

    beforeAll(async () => {
      ;({ simulator, store, admin } = await storeFixture(getContainer(), lender, {
        providerIds: ["pp_paybright_paybright", "pp_system_default"],
        // A sofa, a lamp and a rug: 349.99 × 1.14975 = 402.4010025, 9.66 × 1.14975 = 11.106585, …
        prices: [349.99, 9.66, 123.45],
        shippingPrice: 15,
      }))
    })

    /** A sofa, two lamps, a rug and the bookshelf priced tax included. */
    const QUEBEC_LINES = [
      { variantIndex: 0, quantity: 1 },
      { variantIndex: 1, quantity: 2 },
      { variantIndex: 2, quantity: 1 },
      { variantIndex: 3, quantity: 1 },
    ]

    /** A Quebec order of QUEBEC_LINES. */
    const quebecOrder = placedOncePerSuite(
      () => ({ simulator }),
      (shopper: Shopper = QUEBEC) =>
        placePayBrightOrder(
          api,
          getContainer(),
          store,
          simulator,
          admin,
          QUEBEC_LINES,
          "pp_paybright_paybright",
          shopper
        )
    )

    async function paymentStatus(orderId: string) {
      const { data } = await api.get(`/admin/orders/${orderId}?fields=payment_status`, admin)
      return data.order.payment_status as string
    }

    /** Medusa's ledger of the payment equals the lender's, compared in cents. */
    async function expectLedgersAgree(paymentId: string, reference: string) {
      const medusa = await medusaTotals(getContainer(), paymentId)
      const books = simulator.contract(reference)!
      expect(medusa).toEqual({
        captured: books.captured,
        refunded: books.refunded,
        captures: books.captures.map((capture) => capture.amount),
      })
      return medusa
    }

    const everyItem = (order: any) => order.items.map((item: any) => ({ id: item.id, quantity: item.quantity }))
    const itemTitled = (order: any, title: string) => order.items.find((item: any) => item.title === title)

    it("charges GST and QST to the fraction of a cent, and asks the lender for the total rounded half up", async () => {
      const { order, payment, reference } = await quebecOrder()
      expect(MathBN.convert(order.total).decimalPlaces()).toBeGreaterThan(2)
      const books = simulator.contract(reference)!
      expect(books.authorized).toBe(lenderAmount(order.total))
      const { data } = await api.get(`/admin/payments/${payment.id}?fields=id,amount`, admin)
      expect(MathBN.eq(data.payment.amount, order.total)).toBe(true)
      // Ontario's 13 % HST on the same goods is another total: the shopper's province decides.
      const ontario = await quebecOrder({})
      expect(MathBN.eq(ontario.order.total, order.total)).toBe(false)
    })

    it("captures a taxed order with Medusa's own capture button, and the order reads captured", async () => {
      const { order, payment, reference } = await quebecOrder()
      const { data } = await api.get(`/admin/payments/${payment.id}?fields=id,amount`, admin)
      // The admin's button sends the payment's amount back, fractions of a cent included.
      await api.post(`/admin/payments/${payment.id}/capture`, { amount: data.payment.amount }, admin)
      const medusa = await expectLedgersAgree(payment.id, reference)
      expect(medusa.captured).toBe(lenderAmount(order.total))
      expect(simulator.contract(reference)!.status).toBe("FINAL")
      expect(await eventually(() => paymentStatus(order.id), "captured")).toBe("captured")
      const { data: records } = await api.get(`/admin/paybright/payments/${payment.id}/records`, admin)
      expect(records.records).toEqual([
        expect.objectContaining({ kind: "capture", state: "done", amount: lenderAmount(order.total) }),
      ])
    })

    it("captures the whole payment when the capture names no amount", async () => {
      const { order, payment, reference } = await quebecOrder()
      await api.post(`/admin/payments/${payment.id}/capture`, {}, admin)
      await expectLedgersAgree(payment.id, reference)
      expect(await eventually(() => paymentStatus(order.id), "captured")).toBe("captured")
    })

    it("refuses an amount with fractions of a cent that is not everything that remains, and moves nothing", async () => {
      const { payment, reference } = await quebecOrder()
      const refused = await api.post(
        `/admin/payments/${payment.id}/capture`,
        { amount: 10.005 },
        { ...admin, validateStatus: () => true }
      )
      expect(refused.status).toBe(400)
      expect(refused.data.message).toMatch(/capture amount 10\.005 has fractions of a cent .* enter an amount in cents/)
      expect(simulator.contract(reference)!.captured).toBe("0.00")
      expect((await medusaTotals(getContainer(), payment.id)).captured).toBe("0.00")
    })

    it("ships a taxed order in two parcels: each in cents, the last captures what remains of the contract", async () => {
      const { order, payment, reference } = await quebecOrder()
      const sofa = itemTitled(order, "Sofa")
      await ship(order.id, [{ id: sofa.id, quantity: 1 }])
      const [first] = await captures(order.id, 1)
      // The sofa with GST and QST (402.40) and the shipping (17.25) with the first parcel.
      expect(first.amount).toBe("419.65")
      await ship(
        order.id,
        everyItem(order).filter((line: any) => line.id !== sofa.id)
      )
      await captures(order.id, 2)
      const medusa = await expectLedgersAgree(payment.id, reference)
      expect(medusa.captured).toBe(lenderAmount(order.total))
      expect(await eventually(() => paymentStatus(order.id), "captured")).toBe("captured")
    })

    it("ships a taxed order in three parcels and a partial refund goes back to the cent", async () => {
      const { order, payment, reference } = await quebecOrder()
      const lines = everyItem(order)
      await ship(order.id, [lines[0]])
      await captures(order.id, 1)
      await ship(order.id, [lines[1]])
      await captures(order.id, 2)
      await ship(order.id, lines.slice(2))
      await captures(order.id, 3)
      expect(await eventually(() => paymentStatus(order.id), "captured")).toBe("captured")
      await expectLedgersAgree(payment.id, reference)
      // One lamp goes back: its taxed price in cents, as the admin's refund form takes it.
      const lamp = itemTitled(order, "Desk lamp")
      const refund = lenderAmount(MathBN.div(lamp.total, lamp.quantity))
      await api.post(`/admin/payments/${payment.id}/refund`, { amount: Number(refund) }, admin)
      const medusa = await expectLedgersAgree(payment.id, reference)
      expect(medusa.refunded).toBe(refund)
      expect(await eventually(() => paymentStatus(order.id), "partially_refunded")).toBe("partially_refunded")
    })

    it("refunds a whole taxed order when it is cancelled after its capture, to the cent", async () => {
      const { order, payment, reference } = await quebecOrder()
      await api.post(`/admin/payments/${payment.id}/capture`, {}, admin)
      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin)
      const medusa = await expectLedgersAgree(payment.id, reference)
      expect(medusa).toMatchObject({ captured: lenderAmount(order.total), refunded: lenderAmount(order.total) })
    })

    it("captures a discounted taxed order in cents and in full", async () => {
      await api.post(
        "/admin/promotions",
        {
          code: "QUEBEC15",
          type: "standard",
          status: "active",
          application_method: { type: "percentage", target_type: "items", allocation: "across", value: 15 },
        },
        admin
      )
      const { order, payment, reference } = await quebecOrder({ ...QUEBEC, promoCodes: ["QUEBEC15"] })
      const { data } = await api.get(`/admin/orders/${order.id}?fields=discount_total,tax_total`, admin)
      expect(MathBN.gt(data.order.discount_total, 0)).toBe(true)
      expect(MathBN.gt(data.order.tax_total, 0)).toBe(true)
      const sofa = itemTitled(order, "Sofa")
      await ship(order.id, [{ id: sofa.id, quantity: 1 }])
      await captures(order.id, 1)
      await ship(
        order.id,
        everyItem(order).filter((line: any) => line.id !== sofa.id)
      )
      await captures(order.id, 2)
      const medusa = await expectLedgersAgree(payment.id, reference)
      expect(medusa.captured).toBe(lenderAmount(order.total))
      expect(await eventually(() => paymentStatus(order.id), "captured")).toBe("captured")
    })

    it("captures an order edited before its last parcel to the cent, from the payment its contract was carried into", async () => {
      const { order, payment, reference } = await quebecOrder()
      const sofa = itemTitled(order, "Sofa")
      const lamps = itemTitled(order, "Desk lamp")
      await ship(order.id, [{ id: sofa.id, quantity: 1 }])
      await captures(order.id, 1)
      await editOutOneLamp(order.id, lamps.id)
      // Medusa replaced the payment for what the order owes; the contract is carried into it.
      const carried = async () => {
        const { data } = await api.get(
          `/admin/orders/${order.id}?fields=total,payment_collections.payments.id,payment_collections.payments.canceled_at`,
          admin
        )
        return data.order.payment_collections
          .flatMap((collection: any) => collection.payments)
          .some((candidate: any) => !candidate.canceled_at && candidate.id !== payment.id)
      }
      expect(await eventually(carried, true)).toBe(true)
      await ship(
        order.id,
        everyItem(order)
          .map((line: any) => (line.id === lamps.id ? { ...line, quantity: 1 } : line))
          .filter((line: any) => line.id !== sofa.id)
      )
      const [first, last] = await captures(order.id, 2)
      expect(last.state).toBe("done")
      // GST + QST leave fractions of a cent: the lender holds the edited total, rounded once.
      const { data } = await api.get(`/admin/orders/${order.id}?fields=total`, admin)
      expect(simulator.contract(reference)!.captured).toBe(lenderAmount(data.order.total))

      // Medusa reads such an order as its own provider's: capture the same first amount, edit, pay the rest.
      const twin = await systemProviderOrder()
      await api.post(`/admin/payments/${twin.paymentId}/capture`, { amount: Number(first.amount) }, admin)
      await editOutOneLamp(twin.orderId, itemTitled(twin.order, "Desk lamp").id)
      const { data: edited } = await api.get(
        `/admin/orders/${twin.orderId}?fields=payment_collections.id,payment_collections.status`,
        admin
      )
      const owed = edited.order.payment_collections.find((collection: any) => collection.status === "not_paid")
      await api.post(`/admin/payment-collections/${owed.id}/mark-as-paid`, { order_id: twin.orderId }, admin)
      const asMedusaReadsIt = await paymentStatus(twin.orderId)
      expect(await eventually(() => paymentStatus(order.id), asMedusaReadsIt)).toBe(asMedusaReadsIt)
    })

    async function editOutOneLamp(orderId: string, lampsId: string) {
      await api.post(`/admin/order-edits`, { order_id: orderId }, admin)
      await api.post(`/admin/order-edits/${orderId}/items/item/${lampsId}`, { quantity: 1 }, admin)
      await api.post(`/admin/order-edits/${orderId}/request`, {}, admin)
      await api.post(`/admin/order-edits/${orderId}/confirm`, {}, admin)
    }

    /** The same Quebec order paid with Medusa's system provider, completed by the storefront. */
    async function systemProviderOrder() {
      const cart = await cartReadyForPayment(api, store, QUEBEC_LINES, QUEBEC)
      await api.post(
        `/store/payment-collections/${cart.paymentCollectionId}/payment-sessions`,
        { provider_id: "pp_system_default" },
        storeHeaders(store)
      )
      const { data } = await api.post(`/store/carts/${cart.id}/complete`, {}, storeHeaders(store))
      const orderId = data.order.id as string
      const { data: placed } = await api.get(
        `/admin/orders/${orderId}?fields=id,*items,payment_collections.payments.id`,
        admin
      )
      return { orderId, order: placed.order, paymentId: placed.order.payment_collections[0].payments[0].id as string }
    }
  },
}
