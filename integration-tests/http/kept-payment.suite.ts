import type PayBrightModuleService from "../../src/modules/paybright/service"
import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import type { AppSuite } from "../helpers/one-app"
import { approvalOf, approvedAwaitingDelivery, deliverCallback, deliveryOf, ordersOfCart } from "../helpers/approvals"
import type { Delivery } from "../helpers/approvals"
import { submitApplication } from "../helpers/hosted-application"
import { parcels } from "../helpers/parcels"
import type { SeededStore } from "../../test-support/seed-store"
import { choosePayBright, completeCart, storeHeaders } from "../helpers/shopper"
import { refuseWrites } from "../helpers/database-faults"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"
import { voidFinalOrphans } from "../../src/sweeps/void-orphans"

/**
 * Medusa undoing a completion after it authorized the payment leaves that payment authorized on
 * its session, so the next completion takes it up. What follows must never let an order stand on
 * a contract the plugin voided, nor let a second payment of the collection be mistaken for the
 * order's.
 */
export const keptPayment: AppSuite = {
  title: "a payment Medusa kept after undoing a completion",
  tests: ({ api, getContainer }, lender) => {
    let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]

    beforeAll(async () => {
      ;({ simulator, store, admin } = await storeFixture(getContainer(), lender))
    })

    const pg = () => getContainer().resolve("__pg_connection__")
    const later = () => Date.now() + 60 * 60_000
    const moneyRecords = (contract: string) =>
      getContainer().resolve<PayBrightModuleService>("paybright").listPayBrightMoneyRecords({ contract })

    /**
     * The lender's delivery while the cart's lock cannot be given back once (the lock store
     * blinks): Medusa's completion fails after authorizing the payment and is undone; the plugin
     * keeps that payment authorized on its session.
     */
    async function deliverWhileGivingBackTheLockFails(cartId: string, delivery: Delivery) {
      const restore = await refuseWrites(pg(), {
        name: "kept_payment_lock_kept",
        table: "locking",
        event: "delete",
        when: `old.id = '${cartId}'`,
        once: true,
        message: "the lock store did not answer",
      })
      try {
        return await deliverCallback(delivery)
      } finally {
        await restore()
      }
    }

    /** The merchant sets every product's stock at the store's warehouse, through the Admin API. */
    async function stockAll(quantity: number) {
      const { data } = await api.get(`/admin/inventory-items?fields=id,location_levels.location_id&limit=100`, admin)
      for (const item of data.inventory_items) {
        await api.post(
          `/admin/inventory-items/${item.id}/location-levels/${store.stockLocationId}`,
          { stocked_quantity: quantity },
          admin
        )
      }
    }

    it("places no order on a contract voided after its cart ran out of stock, not even through the Store API's completion", async () => {
      const { cart, delivery, contract } = await approvedAwaitingDelivery(api, store)
      expect((await deliverWhileGivingBackTheLockFails(cart.id, delivery)).status).toBe(503)
      const [kept, ...others] = await paymentsOfCollection(getContainer(), cart.paymentCollectionId)
      expect(others).toEqual([])
      expect(kept).toMatchObject({ canceled_at: null })

      // The last of the stock sells before the lender delivers again: Medusa refuses the cart.
      await stockAll(0)
      try {
        const answered = await deliverCallback(delivery)
        expect(answered.status).toBe(200)
        expect(await answered.json()).toEqual({ result: "orphaned" })
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "orphaned", reason: "completion_failed" })

        // Once final, the job voids the contract.
        expect(await voidFinalOrphans(getContainer(), later())).toEqual({ voided: 1, notVoided: 0 })
        expect(simulator.contract(contract)!.status).toBe("VOIDED")
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "voided" })
      } finally {
        await stockAll(100)
      }

      // Restocked, the storefront asks Medusa to complete the cart: no order stands on the voided contract.
      const completed = await completeCart(api, store, cart.id)
      expect(completed.data.type).not.toBe("order")
      expect(await ordersOfCart(getContainer(), cart.id)).toEqual([])
      // Medusa's books say what the lender holds: the payment is cancelled, by the one void made.
      const [payment] = await paymentsOfCollection(getContainer(), cart.paymentCollectionId)
      expect(payment).toMatchObject({ id: kept.id, canceled_at: expect.anything() })
      expect(await moneyRecords(contract)).toEqual([expect.objectContaining({ kind: "void", state: "done" })])

      // The shopper applies again: the new contract places the order.
      const session = await choosePayBright(api, store, cart)
      const application = await submitApplication(session.data.redirect, "approve")
      const again = deliveryOf(application.location!, session.data.redirect.fields.x_url_callback)
      const placed = await deliverCallback(again)
      expect(placed.status).toBe(200)
      expect(await placed.json()).toEqual({ result: "placed" })
      const [orderId] = await ordersOfCart(getContainer(), cart.id)
      expect(await approvalOf(api, admin, again.fields.x_gateway_reference)).toMatchObject({
        state: "ordered",
        order_id: orderId,
      })
      const {
        data: { panel },
      } = await api.get(`/admin/paybright/orders/${orderId}/panel`, admin)
      expect(panel).toMatchObject({ contract: again.fields.x_gateway_reference })
    })

    it("cancels the kept payment once a person resolves its contract's void, left in doubt, as made", async () => {
      const { cart, delivery, contract } = await approvedAwaitingDelivery(api, store)
      expect((await deliverWhileGivingBackTheLockFails(cart.id, delivery)).status).toBe(503)
      const [kept] = await paymentsOfCollection(getContainer(), cart.paymentCollectionId)
      await stockAll(0)
      try {
        expect((await deliverCallback(delivery)).status).toBe(200)
      } finally {
        await stockAll(100)
      }
      expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "orphaned", reason: "completion_failed" })

      // The lender voids, then fails while answering: the void is in doubt, the payment still live.
      simulator.injectFault(contract, { operation: "void", kind: "status_502" })
      expect(await voidFinalOrphans(getContainer(), later())).toEqual({ voided: 0, notVoided: 1 })
      const [doubt] = await moneyRecords(contract)
      expect(doubt).toMatchObject({ kind: "void", state: "in_doubt" })
      expect((await paymentsOfCollection(getContainer(), cart.paymentCollectionId))[0]).toMatchObject({
        canceled_at: null,
      })
      expect((await completeCart(api, store, cart.id)).data.type).not.toBe("order")

      // The portal shows it cancelled: resolved as made, the approval reads voided and Medusa cancels its payment.
      await api.post(`/admin/paybright/records/${doubt.id}/resolve`, { lender_shows: "done" }, admin)
      expect(simulator.contract(contract)!.status).toBe("VOIDED")
      expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "voided" })
      const [payment] = await paymentsOfCollection(getContainer(), cart.paymentCollectionId)
      expect(payment).toMatchObject({ id: kept.id, canceled_at: expect.anything() })
      expect((await completeCart(api, store, cart.id)).data.type).not.toBe("order")
      expect(await ordersOfCart(getContainer(), cart.id)).toEqual([])
    })

    it("captures the contract its order was placed on when the collection keeps an earlier payment, and voids that one", async () => {
      const first = await approvedAwaitingDelivery(api, store)
      const { cart } = first
      expect((await deliverWhileGivingBackTheLockFails(cart.id, first.delivery)).status).toBe(503)

      // The shopper changes the cart (Medusa deletes its session) and applies again for the new total.
      await api.post(
        `/store/carts/${cart.id}/line-items`,
        { variant_id: store.variants[1].id, quantity: 1 },
        storeHeaders(store)
      )
      const session = await choosePayBright(api, store, cart)
      const application = await submitApplication(session.data.redirect, "approve")
      const second = deliveryOf(application.location!, session.data.redirect.fields.x_url_callback)
      const contract = second.fields.x_gateway_reference
      const placed = await deliverCallback(second)
      expect(placed.status).toBe(200)
      const [orderId, ...more] = await ordersOfCart(getContainer(), cart.id)
      expect(more).toEqual([])
      expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "ordered", order_id: orderId })
      const payments = await paymentsOfCollection(getContainer(), cart.paymentCollectionId)
      expect(payments.filter((payment) => !payment.canceled_at)).toHaveLength(2)
      const earlier = payments.find((payment) => payment.data?.gateway_reference === first.contract)!

      // The lender delivers the first result again: it will never be an order.
      expect((await deliverCallback(first.delivery)).status).toBe(200)
      expect(await approvalOf(api, admin, first.contract)).toMatchObject({ state: "orphaned" })

      // Only the order's own payment is offered for capture: the earlier one awaits its void.
      const ordersPayment = payments.find((payment) => payment.data?.gateway_reference === contract)!
      const { data: open } = await api.get("/admin/paybright/authorizations", admin)
      expect(
        open.authorizations
          .filter((entry: { order_id?: string }) => entry.order_id === orderId)
          .map((entry: { payment_id: string }) => entry.payment_id)
      ).toEqual([ordersPayment.id])

      // The merchant ships: the contract the order was placed on is captured, and the panel shows it.
      const { data } = await api.get(`/admin/orders/${orderId}?fields=*items`, admin)
      const shipping = parcels(api, () => ({ admin, store }))
      await shipping.ship(
        orderId,
        data.order.items.map((item: { id: string; quantity: number }) => ({ id: item.id, quantity: item.quantity }))
      )
      const captures = await shipping.captures(orderId, 1)
      expect(captures.map((capture: { state: string }) => capture.state)).toEqual(["done"])
      expect(simulator.contract(contract)!.status).toBe("FINAL")
      expect(simulator.contract(first.contract)!.status).toBe("PENDING")
      expect(await moneyRecords(first.contract)).toEqual([])
      const {
        data: { panel },
      } = await api.get(`/admin/paybright/orders/${orderId}/panel`, admin)
      expect(panel).toMatchObject({ contract, captured: panel.authorized })

      // Once final, the earlier contract is voided, Medusa's payment on it cancelled, and nothing is left to do.
      expect(await voidFinalOrphans(getContainer(), later())).toEqual({ voided: 1, notVoided: 0 })
      expect(simulator.contract(first.contract)!.status).toBe("VOIDED")
      expect(await approvalOf(api, admin, first.contract)).toMatchObject({ state: "voided" })
      const after = await paymentsOfCollection(getContainer(), cart.paymentCollectionId)
      expect(after.find((payment) => payment.id === earlier.id)).toMatchObject({ canceled_at: expect.anything() })
      expect(after.find((payment) => payment.id !== earlier.id)).toMatchObject({ canceled_at: null })
      expect(await voidFinalOrphans(getContainer(), later())).toEqual({ voided: 0, notVoided: 0 })
      const { data: attention } = await api.get("/admin/paybright/attention", admin)
      expect(
        attention.items.filter((item: { contract: string | null }) =>
          [first.contract, contract].includes(item.contract ?? "")
        )
      ).toEqual([])
    })
  },
}

/** The payments (cancelled or not) of a payment collection. */
async function paymentsOfCollection(container: MedusaContainer, paymentCollectionId: string) {
  const [collection] = await container
    .resolve(Modules.PAYMENT)
    .listPaymentCollections({ id: paymentCollectionId }, { relations: ["payments"] })
  return collection.payments ?? []
}
