import { Modules } from "@medusajs/framework/utils"
import type { AppSuite } from "../helpers/one-app"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import { PAYBRIGHT_PROVIDER_ID } from "../../src/storefront/provider"
import { approvalOf, deliverCallback, deliveryOf, ordersOfCart } from "../helpers/approvals"
import { sweepUnplacedApprovals } from "../../src/sweeps/sweep-unplaced-approvals"
import { submitApplication } from "../helpers/hosted-application"
import { cartReadyForPayment, choosePayBright, completeCart } from "../helpers/shopper"
import type { SeededStore } from "../../test-support/seed-store"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"

/** A payment method whose authorization is deferred (a bank transfer, say), which the app also registers. */
const DEFERRED = "pp_deferred_deferred"

export const deferredPayment: AppSuite = {
  title: "a store that also takes a payment method whose authorization is deferred",
  tests: ({ api, getContainer }, lender) => {
    let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]

    beforeAll(async () => {
      ;({ simulator, store, admin } = await storeFixture(getContainer(), lender, {
        providerIds: [PAYBRIGHT_PROVIDER_ID, DEFERRED],
      }))
    })

    it("never undoes an order another payment method placed without a payment, when a PayBright approval comes for its cart", async () => {
      // The shopper pays by the deferred method: Medusa places the order with no payment yet.
      const cart = await cartReadyForPayment(api, store)
      await choosePayBright(api, store, cart, undefined, DEFERRED)
      const completed = await completeCart(api, store, cart.id)
      expect([completed.status, completed.data.type]).toEqual([200, "order"])
      const orderId = completed.data.order.id as string

      // A tab left open on the checkout then applies with PayBright on the same cart, and is approved.
      const session = await choosePayBright(api, store, cart)
      const application = await submitApplication(session.data.redirect, "approve")
      const delivery = deliveryOf(application.location!, session.data.redirect.fields.x_url_callback)
      // The lender's result comes long after the order was placed (past any completion's lease).
      await getContainer()
        .resolve("__pg_connection__")
        .raw(`update "order" set created_at = now() - interval '1 hour' where id = ?`, [orderId])
      await deliverCallback(delivery)

      // The order the shopper placed stands, and no other is placed on the cart.
      const [order] = await getContainer().resolve(Modules.ORDER).listOrders({ id: orderId }, { withDeleted: true })
      expect(order).toMatchObject({ id: orderId, deleted_at: null })
      expect(await ordersOfCart(getContainer(), cart.id)).toEqual([orderId])
      const approval = await approvalOf(api, admin, delivery.fields.x_gateway_reference)
      expect(approval?.state).not.toBe("ordered")

      // Past the grace period the store's own retry gives the approval up, still never touching the
      // order, and leaves the contract to the merchant.
      await sweepUnplacedApprovals(getContainer(), Date.now() + 60 * 60_000)
      expect(await approvalOf(api, admin, delivery.fields.x_gateway_reference)).toMatchObject({ state: "orphaned" })
      expect(await ordersOfCart(getContainer(), cart.id)).toEqual([orderId])
      const { data } = await api.get("/admin/paybright/attention", admin)
      expect(data.items).toContainEqual(
        expect.objectContaining({ kind: "orphaned_approval", contract: delivery.fields.x_gateway_reference })
      )
      expect(simulator.contract(delivery.fields.x_gateway_reference)!.captured).toBe("0.00")
    })
  },
}
