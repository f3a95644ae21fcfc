import { Modules } from "@medusajs/framework/utils"
import type { AppSuite } from "../helpers/one-app"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import { PAYBRIGHT_PROVIDER_ID } from "../../src/storefront/provider"
import { ordersOfCart } from "../helpers/approvals"
import { cartReadyForPayment, choosePayBright, completeCart, storeHeaders } from "../helpers/shopper"
import type { SeededStore } from "../../test-support/seed-store"
import { storeFixture } from "../helpers/store-fixture"

/** A payment method whose authorization is deferred (a bank transfer, say), which the app also registers. */
const DEFERRED = "pp_deferred_deferred"

export const deferredPayment: AppSuite = {
  title: "a store that also takes a payment method whose authorization is deferred",
  tests: ({ api, getContainer }, lender) => {
    let simulator: Simulator, store: SeededStore

    beforeAll(async () => {
      ;({ simulator, store } = await storeFixture(getContainer(), lender, {
        providerIds: [PAYBRIGHT_PROVIDER_ID, DEFERRED],
      }))
    })

    it("opens no PayBright application on a cart another payment method placed without a payment, and leaves that order as it is", async () => {
      // The shopper pays by the deferred method: Medusa places the order with no payment yet.
      const cart = await cartReadyForPayment(api, store)
      await choosePayBright(api, store, cart, undefined, DEFERRED)
      const completed = await completeCart(api, store, cart.id)
      expect([completed.status, completed.data.type]).toEqual([200, "order"])
      const orderId = completed.data.order.id as string
      const contracts = simulator.contracts().length

      // A tab left open on the checkout then asks for PayBright on the same cart, whose collection
      // is now the order's: PayBright finances an order once, at checkout, so nothing is opened.
      const refused = await api.post(
        `/store/payment-collections/${cart.paymentCollectionId}/payment-sessions`,
        { provider_id: PAYBRIGHT_PROVIDER_ID },
        { ...storeHeaders(store), validateStatus: () => true }
      )
      expect(refused.status).toBe(400)
      expect(refused.data.said).toEqual({ code: "order_balance_not_financed" })
      expect(simulator.contracts()).toHaveLength(contracts)

      // The order the shopper placed stands, with its deferred payment, and no other is placed on the cart.
      const [order] = await getContainer().resolve(Modules.ORDER).listOrders({ id: orderId }, { withDeleted: true })
      expect(order).toMatchObject({ id: orderId, deleted_at: null })
      expect(await ordersOfCart(getContainer(), cart.id)).toEqual([orderId])
      const sessions = await getContainer()
        .resolve(Modules.PAYMENT)
        .listPaymentSessions({ payment_collection_id: cart.paymentCollectionId })
      expect(sessions.map((session) => session.provider_id)).toEqual([DEFERRED])
    })
  },
}
