import type { AxiosInstance } from "axios"
import type { EventEmitter } from "node:events"
import { MathBN, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { ContractView, Simulator } from "../../src/lenders/paybright/simulator"
import { PAYBRIGHT_MODULE } from "../../src/modules/paybright"
import type PayBrightModuleService from "../../src/modules/paybright/service"
import type { MoneyRecordRow } from "../../src/modules/paybright/money-record-types"
import type { ApprovalRecord } from "../../src/lib/approval-record"
import type { SeededStore } from "../../test-support/seed-store"
import { lenderAmount } from "../../src/lib/lender-cents"
import type { Delivery } from "../helpers/approvals"
import type { FakeStripe } from "../../test-support/fake-stripe"

/** How the store is paid: the lender's in-store capture, or the virtual card charged on the fake Stripe. */
export type StoreMode = "in_store" | "virtual_card"

/** The real store a sequence drives: Medusa over HTTP and in-process, the simulator, the database. */
export type World = {
  mode: StoreMode
  /** The card processor of the virtual-card store, wired to the simulator as the card network is. */
  stripe?: FakeStripe
  api: AxiosInstance
  container: () => MedusaContainer
  simulator: Simulator
  store: SeededStore
  admin: { headers: Record<string, string> }
  lenient: { headers: Record<string, string>; validateStatus: () => boolean }
  /** How many of the store's subscribers are still running on an event already raised. */
  subscribersRunning: () => number
}

/** One shopper's checkout, as the model knows it: what was done, never what it should have led to. */
export type Checkout = {
  cartId: string
  paymentCollectionId: string
  sessionId: string
  redirect: { url: string; method: "POST"; fields: Record<string, string> }
  /** The shopper's answer on the lender's page, once given. */
  decision?: "approve" | "decline" | "leave"
  contract?: string
  delivery?: Delivery
  returnUrl?: string
  /** Its result was delivered (by the callback or the shopper's return) at least once. */
  delivered?: boolean
  /** Its cart became an order (as the model last looked, after a command). */
  ordered?: boolean
  /** The cart changed after the approval (an item added). */
  changed?: boolean
  /** The merchant pressed Medusa's Capture at least once. */
  pressedCapture?: boolean
  /** Parcels packed (fulfillments made) for its order. */
  parcels?: number
  /** The merchant pressed Medusa's Cancel on its order: the only thing that may void a placed loan. */
  cancelPressed?: boolean
  /** The merchant raised the order (an edit up, an exchange): it may then total above the approval. */
  raisedByMerchant?: boolean
  /** The most its order was ever worth, and its parcels, in cents (before a return lowered it). */
  highestWorth?: bigint
  highestPacked?: bigint
  /** The Store API's answers other than 400 to the shopper's PayBright session on an order's collection. */
  straySessions?: string[]
  /** The lender's captured total and the order's worth when the invariants last looked (I9). */
  lastLook?: { captured: bigint; worth: bigint }
  /** The checkout this one applied again for, on the same cart, after its placement failed. */
  againOf?: number
}

/**
 * A fault a command armed, and where it could fire: the lender's operation on one contract, the
 * fake Stripe's endpoint, or a write of Medusa's (a cart's lock, the payment, an order).
 */
export type ArmedFault = {
  /** The command that armed it, as the sequence prints it. */
  command: string
  /** What the run's `faults fired:` line counts it as, e.g. `lender.capture.slow`. */
  kind: string
  /** Whether it answered a call (a request, a write) before the sequence ended or it was re-armed. */
  fired?: boolean
  /** Tells whether it fired, once: when the same place is armed again, or at the end of the day. */
  settle: () => Promise<boolean>
  /** The place it was armed at: arming it again replaces it. */
  place: string
}

/** What the model keeps between commands: the sequence's checkouts and the settings it set. */
export type Model = {
  checkouts: Checkout[]
  captureOn: "shipment" | "fulfillment" | "manual"
  /** Commands run so far, for the invariants that only hold once a sequence has been let settle. */
  steps: number
  /** Every fault the sequence armed, in order. */
  armed: ArmedFault[]
  /**
   * A carry refused by the model's Medusa failure: `armed`, then `fired` once it refused one, which
   * leaves that order on a cancelled payment until the jobs carry its contract (then `over`).
   */
  carryRefusal?: "armed" | "fired" | "over"
}

export function recordsModule(world: World): PayBrightModuleService {
  return world.container().resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
}

/** The order the cart became (the link Medusa keeps), if it still exists, with every payment of its collections. */
export async function orderOf(world: World, checkout: Checkout) {
  const query = world.container().resolve("query")
  const { data: links } = await query.graph({
    entity: "order_cart",
    fields: ["order_id"],
    filters: { cart_id: checkout.cartId },
  })
  const orderId: string | undefined = links[0]?.order_id
  if (!orderId) return undefined
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "status",
      "total",
      "canceled_at",
      "items.*",
      "items.total",
      "items.detail.*",
      "fulfillments.id",
      "fulfillments.shipped_at",
      "fulfillments.canceled_at",
      "shipping_total",
      "credit_line_total",
      "payment_collections.id",
      "payment_collections.status",
      "payment_collections.payments.id",
      "payment_collections.payments.data",
      "payment_collections.payments.amount",
      "payment_collections.payments.canceled_at",
      "payment_collections.payments.captures.amount",
      "payment_collections.payments.captures.raw_amount",
      "payment_collections.payments.refunds.amount",
      "payment_collections.payments.refunds.raw_amount",
    ],
    filters: { id: orderId },
  })
  const order = data[0] as any
  if (!order) return undefined
  const payments: any[] = (order.payment_collections ?? []).flatMap((collection: any) => collection.payments ?? [])
  // The payment a merchant acts on: the first not cancelled, as Medusa's admin offers it.
  const payment = payments.find((candidate) => !candidate.canceled_at) ?? payments[0]
  return { order, payment, payments }
}

/** The contract a Medusa payment carries, if it is a PayBright one. */
export function contractOfPayment(payment: any): string | undefined {
  return (payment?.data as { gateway_reference?: string } | undefined)?.gateway_reference
}

/** Medusa's captured and refunded totals of some payments, in cents: exact sums, rounded once. */
export function medusaCents(payments: any): { captured: string; refunded: string } {
  const all: any[] = Array.isArray(payments) ? payments : payments ? [payments] : []
  const sum = (rows: any[]) =>
    rows.reduce((total, row) => MathBN.add(total, row.raw_amount ?? row.amount), MathBN.convert(0))
  return {
    captured: lenderAmount(sum(all.flatMap((payment) => payment.captures ?? [])) as never),
    refunded: lenderAmount(sum(all.flatMap((payment) => payment.refunds ?? [])) as never),
  }
}

export async function recordsOfContract(world: World, contract: string): Promise<MoneyRecordRow[]> {
  return (await recordsModule(world).listPayBrightMoneyRecords(
    { contract },
    { order: { created_at: "ASC" } }
  )) as unknown as MoneyRecordRow[]
}

export async function approvalOfContract(world: World, contract: string): Promise<ApprovalRecord | undefined> {
  return ((await recordsModule(world).listPayBrightApprovals({ contract })) as ApprovalRecord[])[0]
}

export function contractOf(world: World, checkout: Checkout): ContractView | undefined {
  return checkout.contract ? world.simulator.contract(checkout.contract) : undefined
}

/** The warehouse's stock of every product each day starts with: no shopper is turned away for it unless a command says so. */
export const DAY_STOCK = 1_000_000

/**
 * How long settle waits for payments' locks to be given back: the plugin looks at what Medusa kept
 * after a movement before it gives the lock back, which takes seconds on a loaded machine.
 */
const LOCK_WAIT_MS = 5_000

/**
 * How long settle waits for subscribers: far above what one takes (the model's lock wait is 3 s),
 * so that only a subscriber that hangs lets the invariants look before it ended.
 */
const SUBSCRIBERS_WAIT_MS = 60_000

/**
 * Medusa's local event bus calls the store's subscribers in this process, after the request that
 * raised their event has been answered (a parcel's capture on `shipment.created`, a contract's
 * carry on an order change). Each listener is wrapped, as Medusa's own `waitSubscribersExecution`
 * wraps them, to count the calls still running: the model looks only once they have ended.
 */
export function countRunningSubscribers(container: MedusaContainer): () => number {
  const bus = container.resolve(Modules.EVENT_BUS) as unknown as { eventEmitter_: EventEmitter }
  const emitter = bus.eventEmitter_
  let running = 0
  for (const event of emitter.eventNames()) {
    for (const listener of emitter.listeners(event) as ((...args: unknown[]) => unknown)[]) {
      emitter.removeListener(event, listener)
      emitter.on(event, async (...args: unknown[]) => {
        running++
        try {
          return await listener.apply(bus, args)
        } finally {
          running--
        }
      })
    }
  }
  return () => running
}

/**
 * Waits until the store's subscribers have ended, no money record of these contracts is still
 * pending and no payment's lock is held, for at most `timeoutMs`.
 */
export async function settle(world: World, contracts: string[], timeoutMs = 10_000): Promise<void> {
  const subscribersUntil = Date.now() + SUBSCRIBERS_WAIT_MS
  while (world.subscribersRunning() > 0 && Date.now() < subscribersUntil) {
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  if (!contracts.length) return
  const until = Date.now() + timeoutMs
  for (;;) {
    const pending = await recordsModule(world).listPayBrightMoneyRecords(
      { contract: contracts, state: "pending" } as never,
      { take: 1 }
    )
    // An admin's movement keeps the payment's lock until the plugin has looked at what Medusa kept,
    // a moment after the request was answered.
    const { rows: locks } = await world
      .container()
      .resolve("__pg_connection__")
      .raw(`select id from locking where id like 'paybright:payment:%' and (expiration is null or expiration > now())`)
    // A lock Medusa failed to give back (the model's Medusa failure) stays until its lease ends: the
    // wait for locks is short, the one for records is not.
    const lockWaitOver = Date.now() > until - timeoutMs + LOCK_WAIT_MS
    if ((!pending.length && (!locks.length || lockWaitOver)) || Date.now() > until) return
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
}

/**
 * An hour passes for the locks as it does for the jobs' clock: every lease taken so far ends, as a
 * lock Medusa failed to give back (the model's Medusa failure) ends in life once its lease is over. Locks
 * held without a lease stay held.
 */
export async function leasesLapse(world: World): Promise<void> {
  await world
    .container()
    .resolve("__pg_connection__")
    .raw(`update locking set expiration = now() - interval '1 second' where expiration > now()`)
}

/** Lines of an order not yet in a parcel. */
export function unfulfilledLines(order: any): { id: string; quantity: number }[] {
  return (order.items ?? [])
    .map((item: any) => ({
      id: item.id,
      quantity: Number(item.quantity) - Number(item.detail?.fulfilled_quantity ?? 0),
    }))
    .filter((line: { quantity: number }) => line.quantity > 0)
}

export { Modules }
