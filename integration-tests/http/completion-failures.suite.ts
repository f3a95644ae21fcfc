import fs from "node:fs"
import type PayBrightModuleService from "../../src/modules/paybright/service"
import os from "node:os"
import path from "node:path"
import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import type { AppSuite } from "../helpers/one-app"
import { approvalOf, approvedAwaitingDelivery, deliverCallback, orderOfCart, ordersOfCart } from "../helpers/approvals"
import { eventually } from "../helpers/eventually"
import { orderPayment } from "../helpers/ledger"
import { medusaExec, until } from "../helpers/medusa-exec"
import { placedOncePerSuite } from "../helpers/placed-order"
import { parcels } from "../helpers/parcels"
import type { SeededStore } from "../../test-support/seed-store"
import { returnToStore } from "../../test-support/storefront"
import { completeCart, storeHeaders } from "../helpers/shopper"
import { refuseWrites, orderInsertDroppedOnce, whileRefusingWrites } from "../helpers/database-faults"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"
import { sweepUnplacedApprovals } from "../../src/sweeps/sweep-unplaced-approvals"
import { voidFinalOrphans } from "../../src/sweeps/void-orphans"
import { orphanApprovalWorkflow } from "../../src/workflows"

// The test is the lender: it delivers the result itself, first to the process it kills.
/**
 * Holds every insert into Medusa's `payment` table: the completion that reaches it has created the
 * order and linked it to the cart, and is authorizing its payment. A sequence (outside any
 * transaction) counts the inserts held.
 */
const HOLD_PAYMENTS = `
  create sequence if not exists paybright_test_payment_held;
  create or replace function paybright_test_hold_payment() returns trigger language plpgsql as $$
  begin
    perform nextval('paybright_test_payment_held');
    perform pg_sleep(600);
    return new;
  end $$;
  create trigger paybright_test_hold_payment before insert on payment
    for each row execute function paybright_test_hold_payment();
`

/** Every write of an order fails, as a database refusing writes for a while would fail it. */
const REFUSE_ORDERS = `
  create or replace function paybright_test_refuse_orders() returns trigger language plpgsql as $$
  begin
    raise exception 'the database is refusing writes for a while';
  end $$;
  create trigger paybright_test_refuse_orders before insert on "order"
    for each row execute function paybright_test_refuse_orders();
`

export const completionFailures: AppSuite = {
  title: "cart completions that fail or are cut short",
  tests: ({ api, getContainer, dbConfig }, lender) => {
    let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]

    beforeAll(async () => {
      ;({ simulator, store, admin } = await storeFixture(getContainer(), lender))
    })

    /** Every test begins with an approval the lender has not delivered yet: made once for the suite. */
    const approved = placedOncePerSuite(
      () => ({ simulator }),
      async () => {
        const approval = await approvedAwaitingDelivery(api, store)
        return { ...approval, reference: approval.contract }
      }
    )

    const pg = () => getContainer().resolve("__pg_connection__")

    it("places the order on a redelivery once the server killed mid-completion has let go of the cart, and voids nothing", async () => {
      const { cart, delivery, contract } = await approved()
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paybright-kill-completion-"))
      const file = path.join(dir, "delivery.json")
      fs.writeFileSync(file, JSON.stringify(delivery.fields))

      // The lender's first delivery reaches a server that dies while Medusa completes the cart.
      await pg().raw(HOLD_PAYMENTS)
      const doomed = medusaExec("./integration-tests/cross-process/deliver-then-die.ts", dbConfig.clientUrl, {
        PAYBRIGHT_DELIVERY: file,
      })
      try {
        await until(
          async () => (await pg().raw(`select is_called from paybright_test_payment_held`)).rows[0].is_called,
          120_000,
          doomed.output
        )
        doomed.child.kill("SIGKILL")
        expect(await doomed.exited).toBeNull()
      } finally {
        // The dead process's connection closes as the kernel would close it; then nothing is held.
        await pg().raw(`select pg_terminate_backend(pid) from pg_stat_activity where wait_event = 'PgSleep'`)
        await pg().raw(`drop trigger paybright_test_hold_payment on payment`)
      }
      expect(fs.existsSync(`${file}.survived`)).toBe(false)
      const [halfPlaced] = await ordersOfCart(getContainer(), cart.id)
      expect(halfPlaced).toBeDefined()
      expect(await paymentsOfCollection(getContainer(), cart.paymentCollectionId)).toEqual([])

      // The lender's next delivery finds the cart still held by the dead server: try again later.
      expect((await deliverCallback(delivery)).status).toBe(503)
      expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "approved" })

      // The dead server's lease on the cart lapses (its lifetime is two minutes: here its end is
      // brought forward, as that time passing would, and the half-placed order ages with it, as
      // does the payment session its completion was paying with).
      await pg().raw(`update locking set expiration = now() - interval '1 second' where id = ?`, [cart.id])
      await pg().raw(`update "order" set created_at = created_at - interval '1 hour' where id = ?`, [halfPlaced])
      await pg().raw(`update payment_session set created_at = created_at - interval '1 hour' where id = ?`, [
        delivery.fields.x_reference,
      ])

      // The next delivery places the order, paid by the contract.
      const placed = await deliverCallback(delivery)
      expect(placed.status).toBe(200)
      expect(await placed.json()).toEqual({ result: "placed" })
      const [orderId, ...more] = await ordersOfCart(getContainer(), cart.id)
      expect(more).toEqual([])
      expect(orderId).not.toBe(halfPlaced)
      expect((await orderPayment(getContainer(), orderId)).data.gateway_reference).toBe(contract)
      expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "ordered", order_id: orderId })
      // The half-placed order is gone, with the stock it held: only the real order's item is reserved.
      expect(await getContainer().resolve(Modules.ORDER).listOrders({ id: halfPlaced })).toEqual([])
      const reservations = await getContainer()
        .resolve(Modules.INVENTORY)
        .listReservationItems({ location_id: store.stockLocationId })
      expect(reservations.map((reservation) => reservation.quantity)).toEqual([1])

      // The merchant ships it and the lender is paid; the sweeps, long after, find nothing to decide
      // and void nothing.
      const { data } = await api.get(`/admin/orders/${orderId}?fields=*items`, admin)
      const shipping = parcels(api, () => ({ admin, store }))
      await shipping.ship(
        orderId,
        data.order.items.map((item: { id: string; quantity: number }) => ({ id: item.id, quantity: item.quantity }))
      )
      expect((await shipping.captures(orderId, 1)).map((capture: { state: string }) => capture.state)).toEqual(["done"])
      const later = Date.now() + 60 * 60_000
      await sweepUnplacedApprovals(getContainer(), later)
      expect(await voidFinalOrphans(getContainer(), later)).toEqual({ voided: 0, notVoided: 0 })
      expect(simulator.contract(contract)!.status).not.toBe("VOIDED")
      expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "ordered", order_id: orderId })
      fs.rmSync(dir, { recursive: true, force: true })
    })

    it("keeps for the merchant, never voided, an approval the store itself failed to place past the grace period", async () => {
      const { delivery, contract } = await approved()
      await pg().raw(REFUSE_ORDERS)
      try {
        // Within the grace period the lender is asked to deliver again.
        expect((await deliverCallback(delivery)).status).toBe(503)
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "approved" })

        // Past it, the store's own retry gives up on placing it, and leaves it to the merchant.
        const later = Date.now() + 60 * 60_000
        expect(await sweepUnplacedApprovals(getContainer(), later)).toMatchObject({ orphaned: 1 })
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "orphaned", reason: "not_placed" })
        expect(await voidFinalOrphans(getContainer(), later)).toEqual({ voided: 0, notVoided: 0 })
        expect(simulator.contract(contract)!.status).not.toBe("VOIDED")
        const { data } = await api.get("/admin/paybright/attention", admin)
        const listed = data.items.filter((item: { contract: string | null }) => item.contract === contract)
        expect(listed).toEqual([
          expect.objectContaining({
            kind: "orphaned_approval",
            actions: ["mark_handled"],
            message: expect.stringContaining(
              "the store could not place its order within the grace period, though nothing about the cart refused it (its last attempt answered: the database is refusing writes for a while). Cancel it in the PayBright portal, then mark it handled."
            ),
          }),
        ])
        // The lender's next delivery is answered: the approval is recorded for the merchant.
        const answered = await deliverCallback(delivery)
        expect(answered.status).toBe(200)
        expect(await answered.json()).toEqual({ result: "orphaned" })
      } finally {
        await pg().raw(`drop trigger paybright_test_refuse_orders on "order"`)
      }
    })

    it("decides an approval never placed after the admin lowered the order limits below its cart, and lists it", async () => {
      const { cart, delivery, contract } = await approved()
      const settings = "/admin/paybright/settings/pp_paybright_paybright"
      await pg().raw(REFUSE_ORDERS)
      try {
        expect((await deliverCallback(delivery)).status).toBe(503)
        // The merchant lowers the largest order PayBright is offered for, below this cart's total:
        // it decides what is offered from now on, not whether an approval already given is decided.
        expect((await api.post(settings, { maxOrderAmount: "10" }, admin)).status).toBe(200)
        const later = Date.now() + 60 * 60_000
        expect(await sweepUnplacedApprovals(getContainer(), later)).toMatchObject({ orphaned: 1, waiting: 0 })
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "orphaned", reason: "not_placed" })
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
        const { data } = await api.get("/admin/paybright/attention", admin)
        expect(data.items).toContainEqual(expect.objectContaining({ kind: "orphaned_approval", contract }))
      } finally {
        await pg().raw(`drop trigger paybright_test_refuse_orders on "order"`)
        await api.post(settings, { maxOrderAmount: null }, admin)
      }
    })

    it("leaves no lock behind on the cart when it looks whether a completion is running, even if giving one back fails", async () => {
      const { cart, delivery } = await approved()
      // The approval is recorded but its order's write fails once; the storefront then completes
      // the cart itself, through the Store API.
      const dropped = await whileRefusingWrites(pg(), orderInsertDroppedOnce("order_insert_dropped_once"), () =>
        deliverCallback(delivery)
      )
      expect(dropped.status).toBe(503)
      const placed = await completeCart(api, store, cart.id)
      expect([placed.status, placed.data.type]).toEqual([200, "order"])
      // The lender delivers again: the store looks whether a completion still holds the cart
      // before it answers with that order. Giving back a lock on the cart fails once, as a blink
      // of the database would make it fail.
      const restore = await refuseWrites(pg(), {
        name: "cart_lock_kept",
        table: "locking",
        event: "delete",
        when: `old.id = '${cart.id}'`,
        once: true,
        message: "the database dropped the write",
      })
      try {
        expect((await deliverCallback(delivery)).status).toBe(200)
      } finally {
        await restore()
      }
      // Past any lease the look could have taken, Medusa's own completion of the cart takes its
      // lock again, and answers the order.
      await new Promise((resolve) => setTimeout(resolve, 6_000))
      const completed = await completeCart(api, store, cart.id)
      expect([completed.status, completed.data.type, completed.data.order?.id]).toEqual([
        200,
        "order",
        placed.data.order.id,
      ])
    })

    it("leaves an approval to the next sweep when it cannot be withdrawn from its session, and places it then", async () => {
      const { cart, delivery, contract } = await approved()
      await pg().raw(REFUSE_ORDERS)
      // The session's write that withdraws the approval fails too, for as long as the orders' do.
      const restoreWithdrawal = await refuseWrites(pg(), {
        name: "withdraw_refused",
        table: "payment_session",
        event: "update",
        when: "new.data->>'paybright_status' = 'expired'",
        once: false,
        message: "the database is refusing writes for a while",
      })
      const later = Date.now() + 60 * 60_000
      try {
        expect((await deliverCallback(delivery)).status).toBe(503)
        // Past the grace period the sweep gives up on placing it, but cannot withdraw it: undecided.
        expect(await sweepUnplacedApprovals(getContainer(), later)).toMatchObject({ orphaned: 0, waiting: 1 })
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "approved" })
      } finally {
        await pg().raw(`drop trigger paybright_test_refuse_orders on "order"`)
        await restoreWithdrawal()
      }
      // The database writes again: the next run places the order on it.
      expect(await sweepUnplacedApprovals(getContainer(), later)).toMatchObject({ placed: 1 })
      expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "ordered" })
      expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(1)
      expect(simulator.contract(contract)!.status).not.toBe("VOIDED")
    })

    it("waits for the next delivery when a write of Medusa's authorization is dropped, and places the order on its payment then", async () => {
      const { cart, delivery, contract } = await approved()
      // The payment is written, then the collection's "authorized" is lost with its connection:
      // Medusa says only "Payment authorization failed" and undoes the order.
      const answered = await whileRefusingWrites(
        pg(),
        {
          name: "authorized_collection_dropped",
          table: "payment_collection",
          event: "update",
          when: "new.status = 'authorized'",
          once: true,
          message: "terminating connection due to administrator command",
        },
        () => deliverCallback(delivery)
      )
      expect(answered.status).toBe(503)
      expect(await ordersOfCart(getContainer(), cart.id)).toEqual([])
      expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "approved" })
      const [kept, ...others] = await paymentsOfCollection(getContainer(), cart.paymentCollectionId)
      expect(others).toEqual([])
      expect(kept).toMatchObject({ canceled_at: null })

      // Nothing about the cart refused it: the lender's next delivery places the order on that payment.
      expect((await deliverCallback(delivery)).status).toBe(200)
      const [orderId] = await ordersOfCart(getContainer(), cart.id)
      expect(await orderPayment(getContainer(), orderId)).toMatchObject({ id: kept.id })
      expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "ordered", order_id: orderId })
      expect(simulator.contract(contract)!.status).not.toBe("VOIDED")
      // Medusa's completion reused the payment without writing the collection's "authorized" again:
      // the order reads as authorized all the same, to the merchant and to Medusa's order changes.
      const paymentStatus = async () =>
        (await api.get(`/admin/orders/${orderId}?fields=payment_status`, admin)).data.order.payment_status
      expect(await eventually(paymentStatus, "authorized")).toBe("authorized")
      const [collection] = await getContainer()
        .resolve(Modules.PAYMENT)
        .listPaymentCollections({ id: cart.paymentCollectionId }, { select: ["status"] })
      expect(collection.status).toBe("authorized")
    })

    it("places no order on an approval the plugin no longer counts on, even from a session that still holds it", async () => {
      const { cart, delivery, contract } = await approved()
      // Recorded and sealed into its session, its order not placed (the database refused it).
      await pg().raw(REFUSE_ORDERS)
      try {
        expect((await deliverCallback(delivery)).status).toBe(503)
      } finally {
        await pg().raw(`drop trigger paybright_test_refuse_orders on "order"`)
      }
      const approval = (await approvalOf(api, admin, contract))!
      expect(approval).toMatchObject({ state: "approved" })
      // Decided an orphan as a delivery decides one whose session is gone, while this session
      // outlives the decision: the session is no longer the only guard.
      await orphanApprovalWorkflow(getContainer()).run({ input: { approval_id: approval.id, reason: "cart_changed" } })

      const completed = await api.post(
        `/store/carts/${cart.id}/complete`,
        {},
        { ...storeHeaders(store), validateStatus: () => true }
      )
      expect(completed.data.type).not.toBe("order")
      expect(await ordersOfCart(getContainer(), cart.id)).toEqual([])
      expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "orphaned", reason: "cart_changed" })
    })

    /**
     * The lender's delivery, while the cart's lock cannot be given back once (the lock store blinks):
     * the completion fails after Medusa authorized the payment, and Medusa undoes it, cancelling that
     * payment first, through the provider.
     */
    async function deliverWhileGivingBackTheLockFails(cartId: string, delivery: Parameters<typeof deliverCallback>[0]) {
      await refuseGivingBackTheLockOnce(cartId, 0)
      try {
        return await deliverCallback(delivery)
      } finally {
        await pg().raw(`drop trigger paybright_test_keep_lock on locking`)
      }
    }

    /**
     * The next giving back of the cart's lock fails, after `delaySeconds` (the lock store answers
     * late, then not at all); the sequence `paybright_test_lock_kept` tells when it began.
     */
    async function refuseGivingBackTheLockOnce(cartId: string, delaySeconds: number) {
      await pg().raw(
        `create sequence if not exists paybright_test_lock_kept;
         select setval('paybright_test_lock_kept', 1, false);
         create or replace function paybright_test_keep_lock() returns trigger language plpgsql as $$
         begin
           if old.id = '${cartId}' and nextval('paybright_test_lock_kept') = 1 then
             perform pg_sleep(${delaySeconds});
             raise exception 'the lock store did not answer';
           end if;
           return old;
         end $$;
         create trigger paybright_test_keep_lock before delete on locking
           for each row execute function paybright_test_keep_lock();`
      )
    }

    const moneyRecords = (contract: string) =>
      getContainer().resolve<PayBrightModuleService>("paybright").listPayBrightMoneyRecords({ contract })

    it("keeps the contract when Medusa undoes a completion that failed after authorizing, and places the order on the next delivery", async () => {
      const { cart, delivery, contract } = await approved()
      expect((await deliverWhileGivingBackTheLockFails(cart.id, delivery)).status).toBe(503)
      // Undone: no order; but the contract stands and its payment is still authorized on the session.
      expect(await ordersOfCart(getContainer(), cart.id)).toEqual([])
      expect(simulator.contract(contract)!.status).not.toBe("VOIDED")
      const [kept, ...others] = await paymentsOfCollection(getContainer(), cart.paymentCollectionId)
      expect(others).toEqual([])
      expect(kept).toMatchObject({ canceled_at: null })
      expect(await moneyRecords(contract)).toEqual([])

      // The lender's next delivery places the order, on that very payment.
      expect((await deliverCallback(delivery)).status).toBe(200)
      const [orderId] = await ordersOfCart(getContainer(), cart.id)
      expect(await orderPayment(getContainer(), orderId)).toMatchObject({ id: kept.id })
      expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "ordered", order_id: orderId })
    })

    it("sends the shopper back only to an order its completion kept, while that completion may still be undone", async () => {
      const { cart, delivery, contract, returnUrl } = await approved()
      // The callback's completion has made the order and authorized its payment, then waits on the
      // cart's lock being given back, which fails: Medusa undoes the order. The shopper returns
      // meanwhile.
      await refuseGivingBackTheLockOnce(cart.id, 3)
      try {
        const callback = deliverCallback(delivery)
        await until(
          async () => (await pg().raw(`select is_called from paybright_test_lock_kept`)).rows[0].is_called,
          30_000,
          () => "the callback's completion never came to give the cart back"
        )
        expect(await orderOfCart(getContainer(), cart.id)).toBeDefined()
        const landedOn = await returnToStore(returnUrl)
        const answered = await callback

        // The shopper's order is the one that stands, on the contract's payment, and the approval says so.
        expect(landedOn).toBeDefined()
        expect(await ordersOfCart(getContainer(), cart.id)).toEqual([landedOn])
        expect(await orderPayment(getContainer(), landedOn!)).toMatchObject({
          data: expect.objectContaining({ gateway_reference: contract }),
        })
        expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "ordered", order_id: landedOn })
        expect(simulator.contract(contract)!.status).not.toBe("VOIDED")
        // The callback's own completion failed: the lender is asked to deliver again.
        expect(answered.status).toBe(503)
      } finally {
        await pg().raw(`drop trigger paybright_test_keep_lock on locking`)
      }
    })

    it("places no order on a payment Medusa cancelled, reports the approval at once, and counts its contract voided", async () => {
      const { cart, delivery, contract } = await approved()
      expect((await deliverWhileGivingBackTheLockFails(cart.id, delivery)).status).toBe(503)
      // Medusa cancels the payment the undone completion left (no completion is running now): the
      // contract is voided, as for any cancelled payment.
      const [kept] = await paymentsOfCollection(getContainer(), cart.paymentCollectionId)
      await getContainer().resolve(Modules.PAYMENT).cancelPayment(kept.id)
      expect(simulator.contract(contract)!.status).toBe("VOIDED")

      // The next delivery places nothing on it, and the merchant has the approval with the reason.
      const answered = await deliverCallback(delivery)
      expect(answered.status).toBe(200)
      expect(await answered.json()).toEqual({ result: "orphaned" })
      expect(await ordersOfCart(getContainer(), cart.id)).toEqual([])
      expect(await approvalOf(api, admin, contract)).toMatchObject({
        state: "orphaned",
        reason: "payment_cancelled",
        message: expect.stringContaining("Medusa cancelled its payment while the order was being placed"),
      })
      // Once final, the approval reads voided: the contract is voided already, nothing is sent again.
      expect(await voidFinalOrphans(getContainer(), Date.now() + 60 * 60_000)).toEqual({
        voided: 1,
        notVoided: 0,
      })
      expect(await approvalOf(api, admin, contract)).toMatchObject({ state: "voided" })
      expect(await moneyRecords(contract)).toEqual([expect.objectContaining({ kind: "void", state: "done" })])
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
