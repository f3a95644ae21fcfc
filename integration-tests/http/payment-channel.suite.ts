import type { AppSuite } from "../helpers/one-app"
import { SIMULATOR_TEST_ACCOUNT, type Simulator } from "../../src/lenders/paybright/simulator"
import { SETTINGS_KEY_ENV } from "../../src/lib/secret-box"
import { medusaTotals } from "../helpers/ledger"
import { placedOncePerSuite, placePayBrightOrder } from "../helpers/placed-order"
import type { SeededStore } from "../../test-support/seed-store"
import {
  approvedAwaitingDelivery,
  approvedForReplacedSession,
  deliverCallback,
  orderOfCart,
} from "../helpers/approvals"
import { orderPayment } from "../helpers/ledger"
import { orderInsertDroppedOnce, whileRefusingWrites } from "../helpers/database-faults"
import { voidFinalOrphans } from "../../src/sweeps/void-orphans"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"

/** A second merchant account the simulator knows: what a merchant switches to in the admin. */
export const SECOND_ACCOUNT = { apiKey: "sim_second_account", apiToken: "sim_second_token_for_tests_only" }
const SETTINGS = "/admin/paybright/settings/pp_paybright_paybright"

/**
 * A payment keeps the way it was authorized: a settings change in the admin applies to new
 * payments, and never reroutes the money of an open one.
 */
export const paymentChannel: AppSuite = {
  title: "a settings change and the payments already open",
  tests: ({ api, getContainer }, lender) => {
    let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]
    const lenient = () => ({ ...admin, validateStatus: () => true })

    beforeAll(async () => {
      process.env[SETTINGS_KEY_ENV] = "a-payment-channel-test-key-of-more-than-32-characters"
      ;({ simulator, store, admin } = await storeFixture(getContainer(), lender, { prices: [349.99, 9.66] }))
    })

    afterAll(() => {
      delete process.env[SETTINGS_KEY_ENV]
    })

    const placedOrder = placedOncePerSuite(
      () => ({ simulator }),
      () => placePayBrightOrder(api, getContainer(), store, simulator, admin, [{ variantIndex: 0, quantity: 1 }])
    )

    async function save(settings: Record<string, unknown>) {
      const saved = await api.post(SETTINGS, settings, lenient())
      expect({ status: saved.status, body: saved.data }).toMatchObject({ status: 200 })
    }

    it("records on each payment the channel it was authorized under", async () => {
      const { payment } = await placedOrder()
      expect(payment.data).toMatchObject({
        capture_mode: "in_store",
        card_processor: null,
        environment: "sandbox",
        account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
      })
    })

    it("captures and refunds an in-store payment at the lender after the settings switch to the virtual card", async () => {
      const { order, payment, reference } = await placedOrder()
      await save({ captureMode: "virtual_card", cardProcessorType: "manual" })
      try {
        await api.post(`/admin/payments/${payment.id}/capture`, {}, admin)
        await api.post(`/admin/payments/${payment.id}/refund`, { amount: 25 }, admin)
        // The lender moved the money: nothing was "charged" on a terminal nobody used.
        const books = simulator.contract(reference)!
        const medusa = await medusaTotals(getContainer(), payment.id)
        expect({ captured: books.captured, refunded: books.refunded }).toEqual({
          captured: medusa.captured,
          refunded: "25.00",
        })
        const { data } = await api.get(`/admin/paybright/orders/${order.id}/panel`, admin)
        expect(data.panel).toMatchObject({ capture_mode: "in_store", card_processor: null })
        // A new payment is authorized under the new settings.
        const next = await placedOrder()
        expect(next.payment.data).toMatchObject({ capture_mode: "virtual_card", card_processor: "manual" })
      } finally {
        await save({ captureMode: "in_store", cardProcessorType: "none" })
      }
    })

    it("moves an open payment's money with its own account's credentials after the admin switches accounts", async () => {
      const first = await placedOrder()
      await save({ apiKey: SECOND_ACCOUNT.apiKey, apiToken: SECOND_ACCOUNT.apiToken })
      const second = await placedOrder()
      expect(second.payment.data).toMatchObject({ account_id: SECOND_ACCOUNT.apiKey })
      expect(simulator.contract(second.reference)!.account_id).toBe(SECOND_ACCOUNT.apiKey)

      // The first payment's account is medusa-config.ts's: its credentials are still there.
      await api.post(`/admin/payments/${first.payment.id}/capture`, {}, admin)
      expect(simulator.contract(first.reference)!.captured).toBe(
        (await medusaTotals(getContainer(), first.payment.id)).captured
      )

      // Back to medusa-config.ts's account: the second account's credentials are gone from the store,
      // so its payment is refused before anything is sent, saying why and what to do.
      await save({ apiKey: SIMULATOR_TEST_ACCOUNT.apiKey, apiToken: SIMULATOR_TEST_ACCOUNT.apiToken })
      const refused = await api.post(`/admin/payments/${second.payment.id}/capture`, {}, lenient())
      expect(refused.status).toBe(400)
      expect(refused.data.message).toMatch(
        /was not made \(this payment was authorized under PayBright's sandbox account sim_second_account, whose credentials the store no longer has .*\); nothing moved/
      )
      expect(simulator.contract(second.reference)!.captured).toBe("0.00")

      // Its order cancelled now: the void cannot be sent either, and says why, for the merchant.
      await api.post(`/admin/orders/${second.order.id}/cancel`, {}, admin)
      expect(simulator.contract(second.reference)!.status).not.toBe("VOIDED")
      const { data } = await api.get(`/admin/paybright/payments/${second.payment.id}/records`, admin)
      expect(data.records.filter((record: { kind: string }) => record.kind === "void")).toEqual([
        expect.objectContaining({
          kind: "void",
          state: "refused",
          message: expect.stringMatching(/whose credentials the store no longer has/),
        }),
      ])
      const { data: attention } = await api.get("/admin/paybright/attention", admin)
      expect(attention.items).toContainEqual(
        expect.objectContaining({
          kind: "unvoided_contract",
          contract: second.reference,
          actions: ["retry_void", "resolve"],
        })
      )
    })

    it("voids an orphaned approval through the account it was approved under, after the admin switches accounts", async () => {
      // Approved under medusa-config.ts's account for a session the shopper replaced meanwhile.
      const { contract } = await approvedForReplacedSession(api, store, simulator)
      expect(simulator.contract(contract)!.account_id).toBe(SIMULATOR_TEST_ACCOUNT.apiKey)

      await save({ apiKey: SECOND_ACCOUNT.apiKey, apiToken: SECOND_ACCOUNT.apiToken })
      try {
        expect(await voidFinalOrphans(getContainer(), Date.now() + 60 * 60_000)).toEqual({
          voided: 1,
          notVoided: 0,
        })
        expect(simulator.contract(contract)!.status).toBe("VOIDED")
      } finally {
        await save({ apiKey: SIMULATOR_TEST_ACCOUNT.apiKey, apiToken: SIMULATOR_TEST_ACCOUNT.apiToken })
      }
    })

    it("places an approval delivered again after the settings switched to the virtual card under the channel it was approved with", async () => {
      const { cart, delivery, contract } = await approvedAwaitingDelivery(api, store)
      // The approval is verified in store; its order's write fails once.
      const answered = await whileRefusingWrites(
        getContainer().resolve("__pg_connection__"),
        orderInsertDroppedOnce("channel_order_dropped_once"),
        () => deliverCallback(delivery)
      )
      expect(answered.status).toBe(503)
      await save({ captureMode: "virtual_card", cardProcessorType: "manual" })
      try {
        // The lender delivers again: the order is placed on the channel the contract was approved in.
        expect((await deliverCallback(delivery)).status).toBe(200)
        const orderId = (await orderOfCart(getContainer(), cart.id))!
        const payment = await orderPayment(getContainer(), orderId)
        expect(payment.data).toMatchObject({
          gateway_reference: contract,
          capture_mode: "in_store",
          card_processor: null,
        })
        await api.post(`/admin/payments/${payment.id}/capture`, {}, admin)
        expect(simulator.contract(contract)!.captured).toBe((await medusaTotals(getContainer(), payment.id)).captured)
      } finally {
        await save({ captureMode: "in_store", cardProcessorType: "none" })
      }
    })
  },
}
