import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { MathBN, Modules } from "@medusajs/framework/utils"
import { SIMULATOR_TEST_ACCOUNT, type Simulator } from "../../src/simulator"
import { useSimulator } from "../helpers/simulator"
import { sign } from "../../src/lender/signing"
import { adminHeaders } from "../helpers/admin-auth"
import { useAppPort } from "../helpers/app-port"
import { follow, submitApplication } from "../helpers/hosted-application"
import { medusaTotals, orderPayment } from "../helpers/ledger"
import { seedStore, type SeededStore } from "../helpers/seed-store"
import { cartReadyForPayment, choosePayBright, completeCart } from "../helpers/shopper"

jest.setTimeout(120_000)

const app = useAppPort()
const lender = useSimulator(
  { decision: "ask", callback: { delayMs: 0, retries: 3, retryIntervalMs: 200 } },
  { PAYBRIGHT_STOREFRONT_URL: "http://storefront.test" }
)

medusaIntegrationTestRunner({
  env: { MEDUSA_DISABLE_TELEMETRY: "true" },
  testSuite: ({ api, getContainer }) => {
    let simulator: Simulator
    let store: SeededStore
    let admin: { headers: Record<string, string> }

    beforeAll(async () => {
      simulator = lender.simulator
      store = await seedStore(getContainer())
      admin = await adminHeaders(getContainer())
    })

    beforeEach(() => {
      simulator.settings = { decision: "ask", callback: { enabled: true, delayMs: 0 } }
    })

    // The database is restored between tests: a retry still on its way must not reach the next one.
    afterEach(() => {
      simulator.settings = { callback: { enabled: false } }
    })

    /** The shopper's whole trip: cart, PayBright, the lender's page, and back to the store. */
    async function checkout(decision: "approve" | "decline" | "leave" = "approve") {
      const cart = await cartReadyForPayment(api, store)
      const session = await choosePayBright(api, store, cart)
      const lender = await submitApplication(session.data.redirect, decision)
      return { cart, session, lender }
    }

    async function orderOfCart(cartId: string): Promise<string | undefined> {
      const query = getContainer().resolve("query")
      const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
      return data[0]?.order_id
    }

    async function waitForCallbacks(reference: string, count = 1) {
      for (let i = 0; i < 100; i++) {
        const done = simulator.callbacks().filter((entry) => entry.reference === reference && entry.status === 200)
        if (done.length >= count) {
          return done
        }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new Error(`no successful callback for ${reference}`)
    }

    it("takes an approved application to an order, then captures and refunds at the lender", async () => {
      const { cart, session, lender } = await checkout("approve")

      // The storefront sees a form to post, signed, with no secret in it.
      expect(session.data.redirect.url).toBe(`${simulator.checkoutUrl}/CheckOut/ApplicationForm.aspx`)
      expect(session.data.redirect.fields.x_reference).toBe(session.id)
      expect(session.data.redirect.fields.x_amount).toBe(cart.total.toFixed(2))
      expect(session.data.redirect.fields.x_url_callback).toBe(`${app.url}/paybright/callback`)
      expect(JSON.stringify(session)).not.toContain(SIMULATOR_TEST_ACCOUNT.apiToken)

      // Back from the lender: the shopper lands on the order confirmation.
      expect(lender.status).toBe(303)
      const back = await follow(lender.location!)
      expect(back.status).toBe(303)
      const orderId = await orderOfCart(cart.id)
      expect(orderId).toBeDefined()
      expect(back.location).toBe(`http://storefront.test/ca/order/${orderId}/confirmed`)
      await waitForCallbacks(session.id)

      const payment = await orderPayment(getContainer(), orderId!)
      const contract = simulator.contractByReference(session.id)!
      expect(payment.data.gateway_reference).toBe(contract.gateway_reference)
      expect(contract.authorized).toBe(cart.total.toFixed(2))

      // The merchant captures everything from the admin, then refunds part of it.
      await api.post(`/admin/payments/${payment.id}/capture`, {}, admin)
      expect(simulator.contract(contract.gateway_reference)!.captured).toBe(cart.total.toFixed(2))
      await api.post(`/admin/payments/${payment.id}/refund`, { amount: 100.5 }, admin)

      const lenderView = simulator.contract(contract.gateway_reference)!
      const medusa = await medusaTotals(getContainer(), payment.id)
      expect(lenderView.refunded).toBe("100.50")
      expect(medusa).toMatchObject({ captured: lenderView.captured, refunded: lenderView.refunded })
    })

    it("captures exactly the amount the merchant enters, in several partial captures", async () => {
      const { cart, session, lender } = await checkout("approve")
      await follow(lender.location!)
      await waitForCallbacks(session.id)
      const orderId = (await orderOfCart(cart.id))!
      const payment = await orderPayment(getContainer(), orderId)

      await api.post(`/admin/payments/${payment.id}/capture`, { amount: 123.45 }, admin)
      const reference = simulator.contractByReference(session.id)!.gateway_reference
      expect(simulator.contract(reference)!.captures.map((capture) => capture.amount)).toEqual(["123.45"])

      // Medusa's capture without an amount means "the whole payment": the rest is named explicitly.
      const rest = MathBN.sub(cart.total, "123.45").toFixed(2)
      await api.post(`/admin/payments/${payment.id}/capture`, { amount: Number(rest) }, admin)
      const lenderView = simulator.contract(reference)!
      const medusa = await medusaTotals(getContainer(), payment.id)
      expect(lenderView.captures.map((capture) => capture.amount)).toEqual(["123.45", rest])
      expect(lenderView.captures.map((capture) => capture.amount)).toEqual(medusa.captures)
      expect(lenderView.captured).toBe(cart.total.toFixed(2))
      expect(medusa.captured).toBe(lenderView.captured)
    })

    it("records no capture when the lender refuses it, and lets the merchant try again", async () => {
      const { cart, session, lender } = await checkout("approve")
      await follow(lender.location!)
      await waitForCallbacks(session.id)
      const payment = await orderPayment(getContainer(), (await orderOfCart(cart.id))!)
      const reference = simulator.contractByReference(session.id)!.gateway_reference

      simulator.failNext(reference, { operation: "capture", status: 400, message: "Contract is on hold" })
      const refused = await api.post(
        `/admin/payments/${payment.id}/capture`,
        {},
        { ...admin, validateStatus: () => true }
      )
      expect(refused.status).toBeGreaterThanOrEqual(400)
      expect(refused.data.message).toContain("Contract is on hold")
      expect((await medusaTotals(getContainer(), payment.id)).captured).toBe("0.00")
      expect(simulator.contract(reference)!.captured).toBe("0.00")

      simulator.failNext(reference, { operation: "capture", status: 200, message: "Capture failed" })
      const notSuccess = await api.post(
        `/admin/payments/${payment.id}/capture`,
        {},
        { ...admin, validateStatus: () => true }
      )
      expect(notSuccess.status).toBeGreaterThanOrEqual(400)
      expect((await medusaTotals(getContainer(), payment.id)).captured).toBe("0.00")

      await api.post(`/admin/payments/${payment.id}/capture`, {}, admin)
      expect((await medusaTotals(getContainer(), payment.id)).captured).toBe(simulator.contract(reference)!.captured)
    })

    it("sends a declined shopper back to checkout and places nothing", async () => {
      const { cart, session, lender } = await checkout("decline")
      const back = await follow(lender.location!)
      expect(back.status).toBe(303)
      expect(back.location).toBe(
        `http://storefront.test/ca/checkout?step=payment&paybright_status=declined&cart_id=${cart.id}`
      )
      await waitForCallbacks(session.id)
      expect(await orderOfCart(cart.id)).toBeUndefined()
      const completion = await completeCart(api, store, cart.id)
      expect(completion.data.type).not.toBe("order")
    })

    it("sends a shopper who leaves the application back to checkout", async () => {
      const { cart, lender } = await checkout("leave")
      const back = await follow(lender.location!)
      expect(back.status).toBe(303)
      expect(back.location).toBe(
        `http://storefront.test/ca/checkout?step=payment&paybright_status=cancelled&cart_id=${cart.id}`
      )
      expect(await orderOfCart(cart.id)).toBeUndefined()
    })

    it("places one order when the return, the callback, repeats and the storefront all race", async () => {
      simulator.settings = { callback: { enabled: false } }
      const { cart, lender } = await checkout("approve")
      const fields = Object.fromEntries(new URL(lender.location!).searchParams)
      const callback = () =>
        fetch(`${app.url}/paybright/callback`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields).toString(),
        })
      const answers = await Promise.all([follow(lender.location!), callback(), callback(), follow(lender.location!)])
      await completeCart(api, store, cart.id)
      await callback()

      expect(answers[0].status).toBe(303)
      expect(answers[1].status).toBe(200)
      expect(answers[2].status).toBe(200)
      const query = getContainer().resolve("query")
      const { data: orders } = await query.graph({
        entity: "order_cart",
        fields: ["order_id"],
        filters: { cart_id: cart.id },
      })
      expect(orders).toHaveLength(1)
      const payments = getContainer().resolve(Modules.PAYMENT)
      const [collection] = await payments.listPaymentCollections(
        { id: cart.paymentCollectionId },
        { relations: ["payments"] }
      )
      expect(collection.payments).toHaveLength(1)
    })

    it("rejects forged, tampered and misdirected results without placing an order", async () => {
      simulator.settings = { callback: { enabled: false } }
      const { cart, session, lender } = await checkout("approve")
      const genuine = Object.fromEntries(new URL(lender.location!).searchParams)
      const post = (fields: Record<string, string>) =>
        fetch(`${app.url}/paybright/callback`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields).toString(),
        })

      const tampered = { ...genuine, x_amount: "1.00" }
      expect((await post(tampered)).status).toBe(401)
      const wrongKey = { ...genuine, x_signature: sign(genuine, "not-the-token") }
      expect((await post(wrongKey)).status).toBe(401)
      const unsigned = { ...genuine }
      delete (unsigned as Record<string, string>).x_signature
      expect((await post(unsigned)).status).toBe(400)
      const unknown = { ...genuine, x_reference: "payses_unknown" }
      expect((await post({ ...unknown, x_signature: sign(unknown, SIMULATOR_TEST_ACCOUNT.apiToken) })).status).toBe(404)
      expect(await orderOfCart(cart.id)).toBeUndefined()

      // A storefront cannot smuggle another session's genuine approval into its own session.
      const other = await cartReadyForPayment(api, store)
      await choosePayBright(api, store, other, { lender_result: genuine })
      const smuggled = await completeCart(api, store, other.id)
      expect(smuggled.data.type).not.toBe("order")
      expect(await orderOfCart(other.id)).toBeUndefined()

      // The genuine result still places its own order.
      expect((await post(genuine)).status).toBe(200)
      expect(await orderOfCart(cart.id)).toBeDefined()
      expect(session.id).toBe(genuine.x_reference)
    })
  },
})
