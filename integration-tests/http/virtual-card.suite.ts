import type { AppSuite } from "../helpers/one-app"
import { MathBN } from "@medusajs/framework/utils"
import type { AxiosResponse } from "axios"
import { FAULT_KINDS, SIMULATOR_TEST_ACCOUNT, type Simulator } from "../../src/lenders/paybright/simulator"
import { LenderClient } from "../../src/lenders/paybright/client"
import type { FakeStripe, StripeFaultKind } from "../../test-support/fake-stripe"
import { STRIPE_EXPECTED_OUTCOME, STRIPE_FAULT_ACTS } from "../../test-support/fault-matrix"
import { adminHeaders } from "../helpers/admin-auth"
import { dumpDatabase, findCardData, recordLogs, type Transcript } from "../helpers/card-data-search"
import { follow, submitApplication } from "../helpers/hosted-application"
import { medusaTotals, orderPayment } from "../helpers/ledger"
import { PAYBRIGHT_MODULE } from "../../src/modules/paybright"
import type PayBrightModuleService from "../../src/modules/paybright/service"
import { seedStore, type SeededStore } from "../../test-support/seed-store"
import { cartReadyForPayment, choosePayBright, completeCart, storeHeaders } from "../helpers/shopper"
import {
  approvalOf,
  approvedAwaitingDelivery as approvedAwaitingDeliveryIn,
  deliverCallback,
  orderOfCart as orderOfCartIn,
} from "../helpers/approvals"
import { sweepUnplacedApprovals } from "../../src/sweeps/sweep-unplaced-approvals"
import { reconcileMoneyRecordsWorkflow } from "../../src/workflows"
import { orderIdOf } from "../../test-support/storefront"
import { placedOncePerSuite } from "../helpers/placed-order"

/** What the virtual-card suite is handed: the fake Stripe its app charges cards through. */
export type CardNetwork = { readonly stripe: FakeStripe }

/**
 * A store paid through the contract's single-use virtual card, charged with Stripe: the card read
 * at approval, the charge at capture, refunds back to it, Stripe's faults, and the card's number
 * kept out of every log, row and answer.
 */
export function virtualCard(network: CardNetwork): AppSuite {
  return {
    title: "the virtual card, charged through Stripe",
    tests: ({ api, getContainer, dbConnection }, lender) => {
      let simulator: Simulator
      let stripe: FakeStripe
      beforeAll(() => {
        simulator = lender.simulator
        stripe = network.stripe
      })
      // The app's Stripe outlives the suite: a fault armed here and never fired would meet the next suite's charge.
      afterAll(() => network.stripe.clearFaults())
      let store: SeededStore
      let admin: { headers: Record<string, string>; userId: string }
      const lenderClient = () =>
        new LenderClient({ apiUrl: simulator.apiUrl, checkoutUrl: simulator.checkoutUrl, ...SIMULATOR_TEST_ACCOUNT })

      beforeAll(async () => {
        store = await seedStore(getContainer(), {
          providerIds: ["pp_paybright_paybright", "pp_paybright_manual-card"],
          prices: [640.5, 1210, 89.95],
        })
        admin = await adminHeaders(getContainer())
      })

      /** Approves an application for a fresh cart and answers the order's payment, recording what the shopper was answered. */
      async function placeOrder(transcript: Transcript, providerId = "pp_paybright_paybright") {
        const cart = await cartReadyForPayment(api, store, [
          { variantIndex: 0, quantity: 1 },
          { variantIndex: 2, quantity: 2 },
        ])
        const session = await choosePayBright(api, store, cart, undefined, providerId)
        transcript.responses.push(JSON.stringify(session))
        const application = await submitApplication(session.data.redirect, "approve")
        const back = await follow(application.location!)
        transcript.responses.push(back.body, back.location ?? "")
        const orderId = orderIdOf(back.location)
        const payment = await orderPayment(getContainer(), orderId)
        const contract = simulator.contractByReference(session.id)!
        return { cart, orderId, payment, contract, reference: contract.gateway_reference }
      }
      /** The same order for a test that reads nothing of its answers: placed once for the suite. */
      const placedOrder = placedOncePerSuite(
        () => ({ simulator, stripe }),
        () => placeOrder({ logs: [], responses: [] })
      )

      /** The approval's row as the module keeps it. */
      async function approvalRowOf(contract: string) {
        const service = getContainer().resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
        const [row] = await service.listPayBrightApprovals({ contract })
        return row
      }

      function recording(transcript: Transcript) {
        // The reveal answer is the one response meant to carry the card; everything else must not.
        const interceptor = api.interceptors.response.use((response: AxiosResponse) => {
          if (!response.config.url?.endsWith("/card/reveal")) {
            transcript.responses.push(JSON.stringify(response.data))
          }
          return response
        })
        const stopLogs = recordLogs(transcript, getContainer().resolve("logger"))
        return () => {
          stopLogs()
          api.interceptors.response.eject(interceptor)
        }
      }

      it("confirms by the card, charges it through Stripe in two captures, refunds across them, and stores no card data", async () => {
        const transcript: Transcript = { logs: [], responses: [] }
        const stop = recording(transcript)
        try {
          const { cart, payment, contract } = await placeOrder(transcript)
          // Its card was retrieved once the approval was verified, before the cart's completion.
          expect((await approvalRowOf(contract.gateway_reference)).card_confirmed_at).toBeInstanceOf(Date)
          const card = await lenderClient().getVirtualCard(contract.gateway_reference)
          // The payment's data is shown with the cart to the storefront: no card fact in it.
          expect(payment.data.card).toBeUndefined()
          expect(JSON.stringify(payment.data)).not.toContain(card.pan.slice(-4))

          const first = "100.00"
          const second = MathBN.sub(cart.total, first).toFixed(2)
          await api.post(`/admin/payments/${payment.id}/capture`, { amount: Number(first) }, admin)
          await api.post(`/admin/payments/${payment.id}/capture`, { amount: Number(second) }, admin)
          const charges = stripe
            .charges()
            .filter((charge) => charge.metadata.paybright_contract === contract.gateway_reference)
          expect(charges.map((charge) => charge.amount)).toEqual([10000, Number(MathBN.mult(second, 100).toFixed(0))])
          expect(charges.every((charge) => charge.last4 === card.pan.slice(-4))).toBe(true)

          // More than the last charge: it goes back to both charges, the newest first.
          const refund = MathBN.add(second, "20.00").toFixed(2)
          await api.post(`/admin/payments/${payment.id}/refund`, { amount: Number(refund) }, admin)
          const refunded = stripe
            .charges()
            .filter((charge) => charge.metadata.paybright_contract === contract.gateway_reference)
          expect(refunded.map((charge) => charge.refunded)).toEqual([2000, charges[1].amount])

          const masked = await api.get(`/admin/paybright/payments/${payment.id}/card`, admin)
          expect(masked.data.card).toMatchObject({
            last4: card.pan.slice(-4),
            expiry: card.expiration,
            cardholder_name: "PAYBRIGHT",
          })
          const reveal = await api.post(
            `/admin/paybright/payments/${payment.id}/card/reveal`,
            {},
            { ...admin, validateStatus: () => true }
          )
          expect(reveal.status).toBe(400)

          const medusa = await medusaTotals(getContainer(), payment.id)
          const lenderView = simulator.contract(contract.gateway_reference)!
          expect(medusa).toMatchObject({ captured: cart.total.toFixed(2), refunded: refund })
          expect({ captured: lenderView.captured, refunded: lenderView.refunded }).toEqual({
            captured: medusa.captured,
            refunded: medusa.refunded,
          })

          const leaks = findCardData(
            {
              database: await dumpDatabase(dbConnection as never),
              logs: transcript.logs.join("\n"),
              responses: transcript.responses.join("\n"),
            },
            card
          )
          expect(leaks).toEqual([])
          // The search itself finds a card where there is one.
          expect(findCardData({ probe: `{"number":"${card.pan}","cvc":"${card.cvv}"}` }, card)).toHaveLength(2)
          expect(transcript.logs.some((line) => line.includes("PayBright"))).toBe(true)
        } finally {
          stop()
        }
      })

      it("fails a capture Stripe declines with a message saying what to do, and captures on retry", async () => {
        const { payment } = await placedOrder()
        stripe.failNextCharge("card_declined")
        const declined = await api.post(
          `/admin/payments/${payment.id}/capture`,
          { amount: 50 },
          { ...admin, validateStatus: () => true }
        )
        expect(declined.status).toBeGreaterThanOrEqual(400)
        expect(declined.data.message).toMatch(
          /The capture of \$50\.00 CAD on the virtual card of PayBright contract \d+ through stripe was not made \(Stripe declined the virtual card: .*\); nothing moved/
        )
        expect((await medusaTotals(getContainer(), payment.id)).captured).toBe("0.00")
        await api.post(`/admin/payments/${payment.id}/capture`, { amount: 50 }, admin)
        expect((await medusaTotals(getContainer(), payment.id)).captured).toBe("50.00")
      })

      it("records each part of a refund split over two charges, and the merchant records exactly what went back when the second part fails", async () => {
        const { cart, payment, contract } = await placedOrder()
        const second = MathBN.sub(cart.total, "100.00").toFixed(2)
        await api.post(`/admin/payments/${payment.id}/capture`, { amount: 100 }, admin)
        await api.post(`/admin/payments/${payment.id}/capture`, { amount: Number(second) }, admin)
        // The newest charge takes its whole amount back; the 20.00 left over goes to the first, and is refused.
        stripe.injectFault({ endpoint: "refund", kind: "bad_request", after: 1 })
        const refund = MathBN.add(second, "20.00").toFixed(2)
        const failed = await api.post(
          `/admin/payments/${payment.id}/refund`,
          { amount: Number(refund) },
          { ...admin, validateStatus: () => true }
        )
        expect(failed.status).toBe(400)
        expect(failed.data.message).toContain(`${second} to pi_`)
        const module = getContainer().resolve("paybright") as any
        const rows = await module.listPayBrightCardTransactions({ payment_id: payment.id, kind: "refund" })
        expect(rows.map((row: any) => [MathBN.convert(row.amount).toFixed(2), row.state]).sort()).toEqual(
          [
            [second, "done"],
            ["20.00", "refused"],
          ].sort()
        )
        const { data } = await api.get(`/admin/paybright/payments/${payment.id}/records`, admin)
        const doubt = data.records.find((record: any) => record.kind === "refund")
        expect(doubt.state).toBe("in_doubt")
        expect(simulator.contract(contract.gateway_reference)!.refunded).toBe(second)
        expect((await medusaTotals(getContainer(), payment.id)).refunded).toBe("0.00")

        await api.post(`/admin/paybright/records/${doubt.id}/resolve`, { lender_shows: "done" }, admin)
        expect((await medusaTotals(getContainer(), payment.id)).refunded).toBe(second)
        await api.post(`/admin/payments/${payment.id}/refund`, { amount: 20 }, admin)
        const medusa = await medusaTotals(getContainer(), payment.id)
        const lenderView = simulator.contract(contract.gateway_reference)!
        expect(medusa).toMatchObject({ captured: lenderView.captured, refunded: lenderView.refunded })
        expect(medusa.refunded).toBe(refund)
      })

      it("walks the fault matrix on Stripe's charge and refund: outcomes as documented, ledgers agree or an in-doubt record names the gap", async () => {
        const { payment, contract } = await placedOrder()
        await api.post(`/admin/payments/${payment.id}/capture`, { amount: 100 }, admin)
        let injected = 0
        let asDocumented = 0
        let mismatches = 0
        const amounts = { charge: "10.00", refund: "5.00" }
        const gap = async () => {
          const medusa = await medusaTotals(getContainer(), payment.id)
          const books = simulator.contract(contract.gateway_reference)!
          return {
            charge: MathBN.sub(books.captured, medusa.captured).toFixed(2),
            refund: MathBN.sub(books.refunded, medusa.refunded).toFixed(2),
          }
        }
        for (const endpoint of ["charge", "refund"] as const) {
          const kinds =
            endpoint === "charge" ? [...FAULT_KINDS, "processing", "requires_action"] : [...FAULT_KINDS, "processing"]
          for (const kind of kinds as StripeFaultKind[]) {
            // Three in a row: Stripe's client retries twice with the same idempotency key.
            stripe.injectFault({ endpoint, kind, count: 3, delayMs: 2500 })
            injected++
            const response = await api.post(
              `/admin/payments/${payment.id}/${endpoint === "charge" ? "capture" : "refund"}`,
              { amount: Number(amounts[endpoint]) },
              { ...admin, validateStatus: () => true }
            )
            const { data } = await api.get(`/admin/paybright/payments/${payment.id}/records`, admin)
            const latest = data.records.find(
              (record: any) => record.kind === (endpoint === "charge" ? "capture" : "refund")
            )
            const expected = STRIPE_EXPECTED_OUTCOME[kind]
            if (response.status === 400 && latest.state === expected) asDocumented++
            else
              console.error(
                `stripe fault ${endpoint}/${kind}: HTTP ${response.status}, record ${latest.state}, expected ${expected}`
              )
            const moved = STRIPE_FAULT_ACTS[kind] ? amounts[endpoint] : "0.00"
            const now = await gap()
            if (!MathBN.eq(now[endpoint], latest.state === "in_doubt" ? moved : "0.00")) mismatches++
            if (latest.state === "in_doubt") {
              await api.post(
                `/admin/paybright/records/${latest.id}/resolve`,
                { lender_shows: STRIPE_FAULT_ACTS[kind] ? "done" : "nothing" },
                admin
              )
            }
            const after = await gap()
            if (!MathBN.eq(after.charge, 0) || !MathBN.eq(after.refund, 0)) mismatches++
          }
        }
        console.log(
          `stripe faults injected: ${injected}, outcomes as documented: ${asDocumented}, ledger mismatches: ${mismatches}`
        )
        expect({ asDocumented, mismatches }).toEqual({ asDocumented: injected, mismatches: 0 })
      })

      it("lets an admin reveal the card with the manual processor, logging who, and records the terminal's charge", async () => {
        const transcript: Transcript = { logs: [], responses: [] }
        const stop = recording(transcript)
        try {
          const chargesBefore = stripe.charges().length
          const { cart, payment, contract } = await placeOrder(transcript, "pp_paybright_manual-card")
          const revealed = await api.post(`/admin/paybright/payments/${payment.id}/card/reveal`, {}, admin)
          const card = await lenderClient().getVirtualCard(contract.gateway_reference)
          expect(revealed.data.card).toMatchObject({ pan: card.pan, cvv: card.cvv, expiry: card.expiration })
          expect(revealed.headers["cache-control"]).toBe("no-store")

          // The merchant charges the card on the terminal (the card network tells the lender), then captures in Medusa.
          simulator.cardTransaction({
            pan: card.pan,
            kind: "charge",
            amount: cart.total.toFixed(2),
            reference: "terminal-1",
          })
          await api.post(`/admin/payments/${payment.id}/capture`, {}, admin)
          expect(stripe.charges()).toHaveLength(chargesBefore)
          const medusa = await medusaTotals(getContainer(), payment.id)
          expect(medusa.captured).toBe(simulator.contract(contract.gateway_reference)!.captured)

          const revealLog = transcript.logs.find((line) => line.includes("revealed to user"))
          expect(revealLog).toBeDefined()
          // The audit trail: one event-log row naming who, and the card only by its last four digits.
          const events = await getContainer()
            .resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
            .listPayBrightEvents({ payment_id: payment.id, kind: "card.revealed" })
          expect(events).toHaveLength(1)
          expect(events[0]).toMatchObject({ actor: admin.userId, contract: contract.gateway_reference })
          expect(events[0].message).toContain(`ending ${card.pan.slice(-4)}`)
          // Everything is captured now: nothing is left to charge, so the card is not shown again.
          const again = await api.post(
            `/admin/paybright/payments/${payment.id}/card/reveal`,
            {},
            {
              ...admin,
              validateStatus: () => true,
            }
          )
          expect(again.status).toBe(400)
          expect(again.data.message).toContain("nothing left to charge")
          expect(
            findCardData(
              {
                database: await dumpDatabase(dbConnection as never),
                logs: transcript.logs.join("\n"),
                responses: transcript.responses.join("\n"),
              },
              card
            )
          ).toEqual([])
        } finally {
          stop()
        }
      })

      // This file's lender sends no callback: each test delivers the result itself.
      const approvedAwaitingDelivery = () => approvedAwaitingDeliveryIn(api, store)
      const orderOfCart = (cartId: string) => orderOfCartIn(getContainer(), cartId)

      it("reconciles a card charge a stopped process left pending, and names the card processor in what the merchant reads", async () => {
        const { payment, contract } = await placedOrder()
        const module = getContainer().resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
        const row = await module.createPayBrightCardTransactions({
          payment_id: payment.id,
          kind: "charge",
          processor: "stripe",
          amount: "10.00" as never,
          medusa_id: "capt_from_a_stopped_process",
          idempotency_key: "paybright-capture-capt_from_a_stopped_process",
          state: "pending",
        })
        const record = await module.createPayBrightMoneyRecords({
          kind: "capture",
          trigger: "admin",
          payment_id: payment.id,
          contract: contract.gateway_reference,
          amount: "10.00" as never,
          currency_code: "cad",
          state: "pending",
          medusa_id: "capt_from_a_stopped_process",
        })
        const { result } = await reconcileMoneyRecordsWorkflow(getContainer()).run({ input: { stale_after_ms: 0 } })
        expect(result.card_in_doubt).toContain(row.id)
        expect(result.in_doubt).toContain(record.id)
        const [card] = await module.listPayBrightCardTransactions({ id: row.id })
        expect(card.state).toBe("in_doubt")
        const [reconciled] = await module.listPayBrightMoneyRecords({ id: record.id })
        expect(reconciled.message).toMatch(
          /on the virtual card of PayBright contract .* through stripe .* and the payment in stripe/
        )
        await api.post(`/admin/paybright/records/${record.id}/resolve`, { lender_shows: "nothing" }, admin)
      })

      it("charges nothing when a virtual-card order is cancelled, and tells the merchant to cancel the contract in the portal", async () => {
        const { orderId, payment, contract } = await placedOrder()
        await api.post(`/admin/orders/${orderId}/cancel`, {}, admin)
        const [cancelled] = await getContainer().resolve("payment").listPayments({ id: payment.id })
        expect(cancelled.canceled_at).toBeTruthy()
        expect(simulator.contract(contract.gateway_reference)!).toMatchObject({ status: "PENDING", captured: "0.00" })
        const { data } = await api.get(`/admin/paybright/payments/${payment.id}/records`, admin)
        expect(data.records).toEqual([
          expect.objectContaining({ kind: "void", state: "refused", reference: null, actions: ["resolve"] }),
        ])
        expect(data.records[0].message).toMatch(
          /was not voided \(PayBright's order-management API does not cover virtual-card contracts; nothing was charged on the card\).*cancel the contract in the PayBright portal and resolve this record as voided/
        )
        const { data: attention } = await api.get("/admin/paybright/attention", admin)
        const item = attention.items.find((entry: any) => entry.contract === contract.gateway_reference)
        expect(item).toMatchObject({ kind: "unvoided_contract", actions: ["resolve"] })
        await api.post(`/admin/paybright/records/${item.record_id}/resolve`, { lender_shows: "done" }, admin)
        const { data: after } = await api.get("/admin/paybright/attention", admin)
        expect(after.items).not.toContainEqual(expect.objectContaining({ contract: contract.gateway_reference }))
      })

      it("keeps an approval whose virtual card is late usable, and places the order when the same result comes again", async () => {
        const { cart, returnUrl, delivery, contract } = await approvedAwaitingDelivery()
        simulator.failNext(contract, { operation: "card", status: 404, message: "No card for this contract yet" })
        const back = await follow(returnUrl)
        expect(back.location).toContain("paybright_status=processing")
        expect(await orderOfCart(cart.id)).toBeUndefined()
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "approved" })
        // Without its card the cart was left alone (its completion was not tried): the session waits as it was.
        const { data } = await api.get(`/store/carts/${cart.id}`, storeHeaders(store))
        const session = data.cart.payment_collection.payment_sessions[0]
        expect(session.status).toBe("pending")
        expect(JSON.stringify(session.data)).not.toMatch(/No card|apiKey|apiToken/)
        expect((await approvalRowOf(contract)).card_confirmed_at).toBeNull()

        // The lender delivers the very same signed result: the plugin tries again, and the card is there.
        expect((await deliverCallback(delivery)).status).toBe(200)
        const orderId = await orderOfCart(cart.id)
        expect(orderId).toBeDefined()
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "ordered", order_id: orderId })
      })

      it("reports a contract whose virtual card never came within the grace period as an orphan", async () => {
        const { cart, returnUrl, delivery, contract } = await approvedAwaitingDelivery()
        simulator.failNext(contract, { operation: "card", status: 404, message: "No card for this contract yet" })
        expect((await deliverCallback(delivery)).status).toBe(503)
        // Eleven minutes later (virtualCardGraceMinutes is 10), the card is still not there.
        await verifiedAgo(contract, "11 minutes")
        simulator.failNext(contract, { operation: "card", status: 404, message: "No card for this contract yet" })
        expect((await deliverCallback(delivery)).status).toBe(200)
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "orphaned", reason: "card_unavailable" })
        expect((await follow(returnUrl)).location).toContain("paybright_status=error")
        expect((await completeCart(api, store, cart.id)).data.type).not.toBe("order")
        expect(await orderOfCart(cart.id)).toBeUndefined()
      })

      it("answers the lender's callback once a slow completion another request runs has placed the order", async () => {
        const { cart, returnUrl, delivery, contract } = await approvedAwaitingDelivery()
        simulator.settings = { cardLatencyMs: 4_000 }
        try {
          // The shopper's return starts completing the cart: fetching the card takes four seconds.
          const returning = follow(returnUrl)
          await new Promise((resolve) => setTimeout(resolve, 1_000))
          // The callback finds the cart locked, waits for that completion's order, and answers 200.
          const during = await deliverCallback(delivery)
          expect(during.status).toBe(200)
          const back = await returning
          const orderId = await orderOfCart(cart.id)
          expect(orderId).toBeDefined()
          expect(back.location).toContain(`/paybright/return?order_id=${orderId}`)
        } finally {
          simulator.settings = { cardLatencyMs: 0 }
        }
        expect((await deliverCallback(delivery)).status).toBe(200)
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "ordered" })
      })

      /** Moves an approval's verification back in time, as if it had waited that long for an order. */
      async function verifiedAgo(contract: string, interval: string) {
        await (dbConnection as { raw(sql: string, bindings: unknown[]): Promise<unknown> }).raw(
          `update paybright_approval set created_at = now() - interval '${interval}' where contract = ?`,
          [contract]
        )
      }

      it("places the order of an approval the lender stopped delivering: the store delivers the result to itself again", async () => {
        const { cart, delivery, contract } = await approvedAwaitingDelivery()
        simulator.failNext(contract, { operation: "card", status: 404, message: "No card for this contract yet" })
        expect((await deliverCallback(delivery)).status).toBe(503)
        // Within its first minute an approval is left to the deliveries still in flight.
        expect(await sweepUnplacedApprovals(getContainer())).toEqual({
          reopened: 0,
          placed: 0,
          orphaned: 0,
          waiting: 0,
        })
        expect(await orderOfCart(cart.id)).toBeUndefined()

        // The lender gave up delivering; two minutes pass and the card is there now.
        await verifiedAgo(contract, "2 minutes")
        expect(await sweepUnplacedApprovals(getContainer())).toEqual({
          reopened: 0,
          placed: 1,
          orphaned: 0,
          waiting: 0,
        })
        const orderId = await orderOfCart(cart.id)
        expect(orderId).toBeDefined()
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "ordered", order_id: orderId })
        // A late delivery from the lender finds the order, and nothing is placed twice.
        expect((await deliverCallback(delivery)).status).toBe(200)
        expect(await sweepUnplacedApprovals(getContainer(), Date.now() + 3_600_000)).toEqual({
          reopened: 0,
          placed: 0,
          orphaned: 0,
          waiting: 0,
        })
      })

      it("reports an approval still waiting for its order as an orphan once the shopper changes the cart", async () => {
        const { cart, delivery, contract } = await approvedAwaitingDelivery()
        simulator.failNext(contract, { operation: "card", status: 404, message: "No card for this contract yet" })
        expect((await deliverCallback(delivery)).status).toBe(503)
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "approved" })
        // The shopper adds an item: Medusa deletes the payment session that holds the approval.
        await api.post(
          `/store/carts/${cart.id}/line-items`,
          { variant_id: store.variants[2].id, quantity: 1 },
          storeHeaders(store)
        )
        expect((await deliverCallback(delivery)).status).toBe(200)
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "orphaned", reason: "cart_changed" })
        expect(await orderOfCart(cart.id)).toBeUndefined()
      })

      it("after the grace period, tries an unplaced approval one last time, then reports it as an orphan", async () => {
        const { cart, delivery, contract } = await approvedAwaitingDelivery()
        simulator.failNext(contract, { operation: "card", status: 404, message: "No card for this contract yet" })
        expect((await deliverCallback(delivery)).status).toBe(503)
        // The lender gave up delivering; twenty minutes pass and the card is still not there.
        await verifiedAgo(contract, "20 minutes")
        simulator.failNext(contract, { operation: "card", status: 404, message: "No card for this contract yet" })
        expect(await sweepUnplacedApprovals(getContainer())).toEqual({
          reopened: 0,
          placed: 0,
          orphaned: 1,
          waiting: 0,
        })
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "orphaned", reason: "card_unavailable" })
        expect((await completeCart(api, store, cart.id)).data.type).not.toBe("order")
        expect(await sweepUnplacedApprovals(getContainer())).toEqual({
          reopened: 0,
          placed: 0,
          orphaned: 0,
          waiting: 0,
        })
      })

      it("reports an approval recorded without its signed result as an orphan once the grace period is over", async () => {
        const { cart, delivery, contract } = await approvedAwaitingDelivery()
        simulator.failNext(contract, { operation: "card", status: 404, message: "No card for this contract yet" })
        expect((await deliverCallback(delivery)).status).toBe(503)
        // A row written before the plugin kept results cannot be delivered again: only settled.
        await (dbConnection as { raw(sql: string, bindings: unknown[]): Promise<unknown> }).raw(
          "update paybright_approval set lender_result = null where contract = ?",
          [contract]
        )
        await verifiedAgo(contract, "2 minutes")
        expect(await sweepUnplacedApprovals(getContainer())).toEqual({
          reopened: 0,
          placed: 0,
          orphaned: 0,
          waiting: 1,
        })
        await verifiedAgo(contract, "20 minutes")
        expect(await sweepUnplacedApprovals(getContainer())).toEqual({
          reopened: 0,
          placed: 0,
          orphaned: 1,
          waiting: 0,
        })
        // Nothing refused the cart: the merchant decides what becomes of the loan.
        expect(await approvalOf(api, admin, contract)).toMatchObject({
          state: "orphaned",
          reason: "not_placed",
          message: expect.stringContaining(
            "(its last attempt answered: the store kept no signed result to place it with)"
          ),
        })
        expect((await completeCart(api, store, cart.id)).data.type).not.toBe("order")
      })
    },
  }
}
