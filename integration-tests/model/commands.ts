import fc from "fast-check"
import { MathBN } from "@medusajs/framework/utils"
import type { FaultKind } from "../../src/lenders/paybright/simulator"
import { sweepUnplacedApprovals } from "../../src/sweeps/sweep-unplaced-approvals"
import { voidFinalOrphans } from "../../src/sweeps/void-orphans"
import { carryMissedContracts } from "../../src/sweeps/carry-missed-contracts"
import { captureMissedParcels } from "../../src/sweeps/capture-missed-parcels"
import { voidMissedCancellations } from "../../src/sweeps/void-missed-cancellations"
import { reportExpiringAuthorizations } from "../../src/lib/authorization-expiry"
import { reconcileMoneyRecordsWorkflow } from "../../src/workflows"
import { lenderAmount } from "../../src/lib/lender-cents"
import { deliverCallback, deliveryOf } from "../helpers/approvals"
import { follow, submitApplication } from "../helpers/hosted-application"
import { cartReadyForPayment, choosePayBright, storeHeaders } from "../helpers/shopper"
import type { StripeFaultKind } from "../../test-support/fake-stripe"
import {
  contractOf,
  contractOfPayment,
  DAY_STOCK,
  leasesLapse,
  medusaCents,
  orderOf,
  recordsOfContract,
  settle,
  unfulfilledLines,
  type ArmedFault,
  type Checkout,
  type Model,
  type StoreMode,
  type World,
} from "./world"

type Command = fc.AsyncCommand<Model, World>

/** The checkout a command acts on: the k-th of those it may act on, so that shrinking keeps commands valid. */
function pick(model: Readonly<Model>, k: number, eligible: (checkout: Checkout) => boolean): Checkout | undefined {
  const candidates = model.checkouts.filter(eligible)
  return candidates.length ? candidates[k % candidates.length] : undefined
}

const approved = (checkout: Checkout) => !!checkout.contract
/** The merchant's commands act on orders: picked among checkouts whose cart became one. */
const ordered = (checkout: Checkout) => !!checkout.ordered
/** An approval delivered whose cart has no order: its placement failed. */
const unplaced = (checkout: Checkout) => approved(checkout) && !!checkout.delivered && !checkout.ordered

/**
 * After a command, what the store does by itself in the next seconds (a parcel's capture) is let
 * end, and the model notes which carts became orders, for the next commands to pick from.
 */
async function settled(world: World, model: Model) {
  model.steps++
  await settle(
    world,
    model.checkouts.flatMap((checkout) => (checkout.contract ? [checkout.contract] : []))
  )
  if (model.carryRefusal === "armed" && (await medusaFailureFired(world, "carry_session_insert"))) {
    model.carryRefusal = "fired"
  }
  if (!model.checkouts.length) return
  const { data: links } = await world
    .container()
    .resolve("query")
    .graph({
      entity: "order_cart",
      fields: ["cart_id"],
      filters: { cart_id: model.checkouts.map((checkout) => checkout.cartId) },
    })
  const carts = new Set(links.map((link: { cart_id: string }) => link.cart_id))
  for (const checkout of model.checkouts) checkout.ordered = carts.has(checkout.cartId)
}

export class Shop implements Command {
  constructor(readonly variant: number) {}
  check = (m: Readonly<Model>) => m.checkouts.length < 3
  async run(m: Model, world: World) {
    // A store that fails while the shopper fills the cart loses that shopper: nothing to account for.
    const opened = await (async () => {
      const cart = await cartReadyForPayment(world.api, world.store, [{ variantIndex: this.variant, quantity: 1 }])
      return { cart, session: await choosePayBright(world.api, world.store, cart) }
    })().catch(() => undefined)
    if (opened) {
      m.checkouts.push({
        cartId: opened.cart.id,
        paymentCollectionId: opened.cart.paymentCollectionId,
        sessionId: opened.session.id,
        redirect: opened.session.data.redirect,
      })
    }
    await settled(world, m)
  }
  toString = () => `Shop(variant ${this.variant})`
}

export class Apply implements Command {
  constructor(
    readonly k: number,
    readonly decision: "approve" | "decline" | "leave"
  ) {}
  check = (m: Readonly<Model>) => m.checkouts.some((checkout) => !checkout.decision)
  async run(m: Model, world: World) {
    const checkout = pick(m, this.k, (candidate) => !candidate.decision)!
    checkout.decision = this.decision
    const answer = await submitApplication(checkout.redirect, this.decision)
    if (this.decision === "approve" && answer.location) {
      checkout.returnUrl = answer.location
      checkout.delivery = deliveryOf(answer.location, checkout.redirect.fields.x_url_callback)
      checkout.contract = checkout.delivery.fields.x_gateway_reference
    }
    await settled(world, m)
  }
  toString = () => `Apply(${this.k}, ${this.decision})`
}

/** The lender's callback (a copy of it, as the lender retries), or the shopper's return. */
class Deliver implements Command {
  constructor(
    readonly k: number,
    readonly via: "callback" | "return"
  ) {}
  check = (m: Readonly<Model>) => m.checkouts.some(approved)
  async run(m: Model, world: World) {
    const checkout = pick(m, this.k, approved)!
    checkout.delivered = true
    if (this.via === "callback") await deliverCallback(checkout.delivery!)
    else await follow(checkout.returnUrl!)
    await settled(world, m)
  }
  toString = () => `Deliver(${this.k}, ${this.via})`
}

/** The shopper adds an item after the approval, before the order exists (Medusa refuses it after). */
class AddItem implements Command {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>) => m.checkouts.some(approved)
  async run(m: Model, world: World) {
    const checkout = pick(m, this.k, approved)!
    const added = await world.api.post(
      `/store/carts/${checkout.cartId}/line-items`,
      { variant_id: world.store.variants[2].id, quantity: 1 },
      { ...storeHeaders(world.store), validateStatus: () => true }
    )
    if (added.status === 200) checkout.changed = true
    await settled(world, m)
  }
  toString = () => `AddItem(${this.k})`
}

/** Medusa's own Capture button: the whole payment, or 10.00 of it. */
class PressCapture implements Command {
  constructor(
    readonly k: number,
    readonly whole: boolean
  ) {}
  check = (m: Readonly<Model>) => m.checkouts.some(ordered)
  async run(m: Model, world: World) {
    const checkout = pick(m, this.k, ordered)!
    const placed = await orderOf(world, checkout)
    if (placed?.payment) {
      checkout.pressedCapture = true
      await world.api.post(
        `/admin/payments/${placed.payment.id}/capture`,
        this.whole ? {} : { amount: 10 },
        world.lenient
      )
    }
    await settled(world, m)
  }
  toString = () => `PressCapture(${this.k}, ${this.whole ? "whole" : "10.00"})`
}

/**
 * The merchant packs what is left of an order into a parcel (or only one unit of its first line
 * left, so that an order ships in several parcels), ships a packed parcel, or packs and ships.
 */
class Parcel implements Command {
  constructor(
    readonly k: number,
    readonly step: "pack" | "pack one" | "ship" | "pack and ship"
  ) {}
  check = (m: Readonly<Model>) => m.checkouts.some(ordered)
  async run(m: Model, world: World) {
    const checkout = pick(m, this.k, ordered)!
    let placed = await orderOf(world, checkout)
    if (placed && this.step !== "ship") {
      const left = unfulfilledLines(placed.order)
      const lines = this.step === "pack one" ? left.slice(0, 1).map((line) => ({ ...line, quantity: 1 })) : left
      if (lines.length) {
        const packed = await world.api.post(
          `/admin/orders/${placed.order.id}/fulfillments`,
          { items: lines, location_id: world.store.stockLocationId },
          world.lenient
        )
        if (packed.status === 200) checkout.parcels = (checkout.parcels ?? 0) + 1
      }
    }
    if (placed && this.step === "pack and ship") placed = await orderOf(world, checkout)
    if (placed && (this.step === "ship" || this.step === "pack and ship")) {
      const parcel = (placed.order.fulfillments ?? []).find((f: any) => !f.shipped_at && !f.canceled_at)
      if (parcel) {
        const { data } = await world.api.get(`/admin/orders/${placed.order.id}?fields=*fulfillments.items`, world.admin)
        const items = (data.order.fulfillments.find((f: any) => f.id === parcel.id)?.items ?? []).map((item: any) => ({
          id: item.line_item_id,
          quantity: item.quantity,
        }))
        await world.api.post(
          `/admin/orders/${placed.order.id}/fulfillments/${parcel.id}/shipments`,
          { items },
          world.lenient
        )
      }
    }
    await settled(world, m)
  }
  toString = () => `Parcel(${this.k}, ${this.step})`
}

/** Medusa's Refund: 5.00, or everything captured and not refunded. */
class Refund implements Command {
  constructor(
    readonly k: number,
    readonly all: boolean
  ) {}
  check = (m: Readonly<Model>) => m.checkouts.some(ordered)
  async run(m: Model, world: World) {
    const checkout = pick(m, this.k, ordered)!
    const placed = await orderOf(world, checkout)
    if (placed?.payment) {
      const medusa = medusaCents(placed.payment)
      const refundable = MathBN.sub(medusa.captured, medusa.refunded)
      const amount = this.all ? refundable : MathBN.min(refundable, 5)
      if (MathBN.gt(amount, 0)) {
        await world.api.post(
          `/admin/payments/${placed.payment.id}/refund`,
          { amount: Number(lenderAmount(amount as never)) },
          world.lenient
        )
      }
    }
    await settled(world, m)
  }
  toString = () => `Refund(${this.k}, ${this.all ? "all" : "5.00"})`
}

class Cancel implements Command {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>) => m.checkouts.some(ordered)
  async run(m: Model, world: World) {
    const checkout = pick(m, this.k, ordered)!
    const placed = await orderOf(world, checkout)
    if (placed) {
      checkout.cancelPressed = true
      await world.api.post(`/admin/orders/${placed.order.id}/cancel`, {}, world.lenient)
    }
    await settled(world, m)
  }
  toString = () => `Cancel(${this.k})`
}

/**
 * After an order change, Medusa's event has the plugin carry the contract into the collection
 * Medusa opened: let that end (a few seconds at most) before the invariants read the books.
 */
async function carriedAfterChange(world: World, checkout: Checkout) {
  for (let tries = 0; tries < 50; tries++) {
    const placed = await orderOf(world, checkout)
    const paybright = (placed?.payments ?? []).filter((payment) => contractOfPayment(payment))
    if (!placed || placed.order.canceled_at || paybright.some((payment) => !payment.canceled_at)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** A line of the order with a unit shipped and neither returned nor asked back yet. */
function returnableLine(order: any): string | undefined {
  return (order.items ?? []).find((item: any) => {
    const detail = item.detail ?? {}
    const kept =
      Number(detail.shipped_quantity ?? 0) -
      Number(detail.return_requested_quantity ?? 0) -
      Number(detail.return_received_quantity ?? 0) -
      Number(detail.written_off_quantity ?? 0)
    return kept > 0
  })?.id
}

/**
 * An order change as the merchant makes it in Medusa's admin: its steps in order, each through the
 * Admin API; one Medusa refuses ends it, and the change is withdrawn (`withdraw`) so that the
 * order is free for the next one, as the admin's Cancel of a request does.
 */
async function orderChange(
  world: World,
  steps: [path: string, body: Record<string, unknown>][],
  withdraw: string
): Promise<boolean> {
  for (const [path, body] of steps) {
    const answered = await world.api.post(path, body, world.lenient)
    if (answered.status !== 200) {
      await world.api.delete(withdraw, world.lenient)
      return false
    }
  }
  return true
}

/**
 * Medusa's order changes on a shipped unit: a return requested (and received, if `received`), an
 * exchange for another lamp, or a claim refunding it. Each ends by Medusa replacing the order's
 * payment collection, which must never cost the shopper the loan.
 */
class ChangeOrder implements Command {
  constructor(
    readonly k: number,
    readonly kind: "return" | "return received" | "exchange" | "claim"
  ) {}
  check = (m: Readonly<Model>) => m.checkouts.some(ordered)
  async run(m: Model, world: World) {
    const changed = await this.change(m, world)
    if (changed) await carriedAfterChange(world, changed)
    await settled(world, m)
  }
  /** The change's requests, answered: the carry Medusa's event starts may not have run yet. */
  async change(m: Model, world: World): Promise<Checkout | undefined> {
    const checkout = pick(m, this.k, ordered)!
    const placed = await orderOf(world, checkout)
    const line = placed && returnableLine(placed.order)
    if (placed && line) {
      const orderId = placed.order.id
      const unit = { items: [{ id: line, quantity: 1 }] }
      if (this.kind === "return" || this.kind === "return received") {
        const created = await world.api.post(
          "/admin/returns",
          { order_id: orderId, location_id: world.store.stockLocationId },
          world.lenient
        )
        const id = created.data?.return?.id
        if (id) {
          const requested = await orderChange(
            world,
            [
              [`/admin/returns/${id}/request-items`, unit],
              [`/admin/returns/${id}/request`, {}],
            ],
            `/admin/returns/${id}/request`
          )
          if (requested && this.kind === "return received") {
            await orderChange(
              world,
              [
                [`/admin/returns/${id}/receive`, {}],
                [`/admin/returns/${id}/receive-items`, unit],
                [`/admin/returns/${id}/receive/confirm`, {}],
              ],
              `/admin/returns/${id}/receive`
            )
          }
        }
      } else if (this.kind === "exchange") {
        const created = await world.api.post("/admin/exchanges", { order_id: orderId }, world.lenient)
        const id = created.data?.exchange?.id
        if (id) {
          const exchanged = await orderChange(
            world,
            [
              [`/admin/exchanges/${id}/inbound/items`, unit],
              [
                `/admin/exchanges/${id}/outbound/items`,
                { items: [{ variant_id: world.store.variants[1].id, quantity: 1 }] },
              ],
              [`/admin/exchanges/${id}/request`, {}],
            ],
            `/admin/exchanges/${id}/request`
          )
          // The lamp sent out adds to the order's total: the merchant may raise it above the approval.
          if (exchanged) checkout.raisedByMerchant = true
        }
      } else {
        const created = await world.api.post("/admin/claims", { order_id: orderId, type: "refund" }, world.lenient)
        const id = created.data?.claim?.id
        if (id) {
          await orderChange(
            world,
            [
              [`/admin/claims/${id}/inbound/items`, unit],
              [`/admin/claims/${id}/request`, {}],
            ],
            `/admin/claims/${id}/request`
          )
        }
      }
      return checkout
    }
    return undefined
  }
  toString = () => `ChangeOrder(${this.k}, ${this.kind})`
}

/** Medusa's order edit: a line's quantity one up (the first line) or one down (a line not all packed). */
class EditQuantity implements Command {
  constructor(
    readonly k: number,
    readonly direction: "up" | "down"
  ) {}
  check = (m: Readonly<Model>) => m.checkouts.some(ordered)
  async run(m: Model, world: World) {
    const changed = await this.change(m, world)
    if (changed) await carriedAfterChange(world, changed)
    await settled(world, m)
  }
  /** The edit's requests, answered: the carry Medusa's event starts may not have run yet. */
  async change(m: Model, world: World): Promise<Checkout | undefined> {
    const checkout = pick(m, this.k, ordered)!
    const placed = await orderOf(world, checkout)
    const items: any[] = placed?.order.items ?? []
    const line =
      this.direction === "up"
        ? items[0]
        : items.find((item) => Number(item.quantity) > Number(item.detail?.fulfilled_quantity ?? 0))
    if (placed && line) {
      const orderId = placed.order.id
      const quantity = Number(line.quantity) + (this.direction === "up" ? 1 : -1)
      const edited = await orderChange(
        world,
        [
          ["/admin/order-edits", { order_id: orderId }],
          [`/admin/order-edits/${orderId}/items/item/${line.id}`, { quantity }],
          [`/admin/order-edits/${orderId}/request`, {}],
          [`/admin/order-edits/${orderId}/confirm`, {}],
        ],
        `/admin/order-edits/${orderId}`
      )
      if (edited && this.direction === "up") checkout.raisedByMerchant = true
      return checkout
    }
    return undefined
  }
  toString = () => `EditQuantity(${this.k}, ${this.direction})`
}

/** The storefront asks the Store API to complete the cart, as Medusa's own checkout does last. */
class StoreComplete implements Command {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>) => m.checkouts.length > 0
  async run(m: Model, world: World) {
    const checkout = pick(m, this.k, () => true)!
    await world.api.post(
      `/store/carts/${checkout.cartId}/complete`,
      {},
      { ...storeHeaders(world.store), validateStatus: () => true }
    )
    await settled(world, m)
  }
  toString = () => `StoreComplete(${this.k})`
}

/**
 * The warehouse's stock: the last units sell elsewhere (what is left is what placed orders hold,
 * so Medusa refuses to complete a cart), or a delivery refills it. Every day starts refilled.
 */
class Stock implements Command {
  constructor(readonly level: "out" | "back") {}
  check = () => true
  async run(m: Model, world: World) {
    await setStock(world, this.level)
    await settled(world, m)
  }
  toString = () => `Stock(${this.level})`
}

export async function setStock(world: World, level: "out" | "back") {
  const { data } = await world.api.get(
    "/admin/inventory-items?fields=id,location_levels.location_id,location_levels.stocked_quantity,location_levels.reserved_quantity&limit=100",
    world.admin
  )
  for (const item of data.inventory_items) {
    const at = (item.location_levels ?? []).find((found: any) => found.location_id === world.store.stockLocationId)
    if (!at) continue
    const stocked = level === "out" ? Number(at.reserved_quantity) : DAY_STOCK
    if (Number(at.stocked_quantity) === stocked) continue
    await world.api.post(
      `/admin/inventory-items/${item.id}/location-levels/${world.store.stockLocationId}`,
      { stocked_quantity: stocked },
      world.admin
    )
  }
}

/** The order changes a `Together` pair may race: Medusa's order edit, or a return, exchange or claim. */
export type OrderChangeKind = `edit ${EditQuantity["direction"]}` | ChangeOrder["kind"]
const CHANGES: OrderChangeKind[] = [
  // An edit opens a new collection on any order, a return or an exchange only on a shipped one: edits come more often.
  "edit up",
  "edit down",
  "edit down",
  "edit down",
  "return",
  "return received",
  "exchange",
  "claim",
]

/** The pairs that race an order change: what meets it between its confirmation and its contract's carry. */
const CHANGE_PAIRS = [
  "change during capture",
  "change then cancel",
  "change during shipment",
  "change during stray session",
] as const
type ChangePair = (typeof CHANGE_PAIRS)[number]
const CARRY_FAULTS = ["carry as it comes", "carry as it comes", "carry refused", "carry stalled"] as const
type CarryFault = (typeof CARRY_FAULTS)[number]

/**
 * Two things at once on one order, each through its own request, as they meet in life: the
 * lender's redelivery while the merchant presses Capture, two admin tabs pressing Capture, or a
 * parcel shipped (its capture starts) while the merchant presses Capture. Or an order change (an
 * edit, a return, an exchange, a claim) and what may meet it before Medusa's event has the plugin
 * carry the contract into the collection the change opened: the merchant's Capture, a parcel
 * shipped, the shopper asking the Store API for a PayBright session on the order's collections,
 * all at the same moment as the change; or the merchant's Cancel pressed as soon as the change is
 * confirmed, which finds the old payment cancelled and the carry not yet made (or still running).
 * The carry may be made to fail or stall once (`carry refused`, `carry stalled`), armed just before
 * the change, so that the pair meets a carry that has not happened.
 */
class Together implements Command {
  constructor(
    readonly k: number,
    readonly pair: "redelivery during capture" | "two captures" | "shipment during capture" | ChangePair,
    /** The order change of a pair that races one. */
    readonly change: OrderChangeKind = "edit down",
    /** The carry the change starts fails or stalls once (a Medusa failure on the carry's session), or not. */
    readonly carry: CarryFault = "carry as it comes"
  ) {}
  check = (m: Readonly<Model>) => m.checkouts.some(ordered)
  async run(m: Model, world: World) {
    // Both act on one order: each command's index among the checkouts it picks from.
    const checkout = pick(m, this.k, ordered)!
    const among = (eligible: (candidate: Checkout) => boolean) => m.checkouts.filter(eligible).indexOf(checkout)
    if ((CHANGE_PAIRS as readonly string[]).includes(this.pair)) {
      const index = among(ordered)
      const change = this.change.startsWith("edit ")
        ? new EditQuantity(index, this.change.slice("edit ".length) as EditQuantity["direction"])
        : new ChangeOrder(index, this.change as ChangeOrder["kind"])
      if (this.carry !== "carry as it comes") {
        const where = this.carry === "carry refused" ? "carry_session_insert" : "carry_session_slow"
        await new MedusaFailsOnce(where, 0).arm(m, world, this.toString())
      }
      if (this.pair === "change during capture") {
        await Promise.all([change.run(m, world), new PressCapture(index, true).run(m, world)])
      } else if (this.pair === "change during shipment") {
        await Promise.all([change.run(m, world), new Parcel(index, "pack and ship").run(m, world)])
      } else if (this.pair === "change then cancel") {
        // Pressed once the change is answered: Medusa's event for the carry is raised by then.
        await change.change(m, world)
        await new Cancel(index).run(m, world)
      } else {
        const stray = new StraySession(index)
        const asked = new Set<string>()
        const [changed] = await Promise.all([change.change(m, world), stray.ask(world, checkout, asked)])
        // The collection the change opened, asked for before its carry has run.
        await stray.ask(world, checkout, asked)
        if (changed) await carriedAfterChange(world, changed)
        await settled(world, m)
      }
      return
    }
    const other =
      this.pair === "redelivery during capture"
        ? new Deliver(among(approved), "callback")
        : this.pair === "two captures"
          ? new PressCapture(among(ordered), true)
          : new Parcel(among(ordered), "pack and ship")
    await Promise.all([new PressCapture(among(ordered), true).run(m, world), other.run(m, world)])
  }
  toString = () =>
    (CHANGE_PAIRS as readonly string[]).includes(this.pair)
      ? `Together(${this.k}, ${this.pair}, ${this.change}${this.carry === "carry as it comes" ? "" : `, ${this.carry}`})`
      : `Together(${this.k}, ${this.pair})`
}

/**
 * The shopper asks the Store API for a PayBright session on each of the order's payment
 * collections (`GET /store/orders/:id` shows them): a second application on a placed order, which
 * the store must refuse with 400. A session it opens there would stand in the way of the
 * contract's carry; every answer but 400 is noted on the checkout, for invariant I11.
 */
class StraySession implements Command {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>) => m.checkouts.some(ordered)
  async run(m: Model, world: World) {
    const checkout = pick(m, this.k, ordered)!
    await this.ask(world, checkout, new Set())
    await settled(world, m)
  }
  /** Asks on each collection of the order not in `asked` yet, and adds it there. */
  async ask(world: World, checkout: Checkout, asked: Set<string>) {
    const placed = await orderOf(world, checkout)
    for (const collection of placed?.order.payment_collections ?? []) {
      if (!collection?.id || asked.has(collection.id)) continue
      asked.add(collection.id)
      const answered = await world.api.post(
        `/store/payment-collections/${collection.id}/payment-sessions`,
        { provider_id: PAYBRIGHT_PROVIDER },
        { ...storeHeaders(world.store), validateStatus: () => true }
      )
      if (answered.status !== 400) {
        checkout.straySessions = [
          ...(checkout.straySessions ?? []),
          `collection ${collection.id} (${collection.status ?? "?"}) answered ${answered.status}${answered.data?.payment_collection ? ", a session opened" : ""}`,
        ]
      }
    }
  }
  toString = () => `StraySession(${this.k})`
}

/** The store's PayBright provider, as the storefront names it. */
const PAYBRIGHT_PROVIDER = "pp_paybright_paybright"

/**
 * The morning's expiry job, on the day before the lender would cancel the oldest authorization:
 * it must run through, and what it lists is held to what the orders owe (invariant I7).
 */
class Expiry implements Command {
  check = () => true
  async run(m: Model, world: World) {
    await reportExpiringAuthorizations(world.container(), new Date(Date.now() + 29 * DAY_MS))
    await settled(world, m)
  }
  toString = () => "Expiry()"
}

const DAY_MS = 24 * 60 * 60_000

/**
 * A placement failed and the cart has no order: the shopper adds a lamp and applies again on the
 * same cart, and is approved (a new checkout of the model, whose result is delivered like any).
 */
class PayAgain implements Command {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>) => m.checkouts.length < 4 && m.checkouts.some(unplaced)
  async run(m: Model, world: World) {
    const index = m.checkouts.indexOf(pick(m, this.k, unplaced)!)
    const checkout = m.checkouts[index]
    if (!(await orderOf(world, checkout))) {
      const added = await world.api.post(
        `/store/carts/${checkout.cartId}/line-items`,
        { variant_id: world.store.variants[1].id, quantity: 1 },
        { ...storeHeaders(world.store), validateStatus: () => true }
      )
      const session =
        added.status === 200
          ? await choosePayBright(world.api, world.store, {
              id: checkout.cartId,
              total: 0,
              paymentCollectionId: added.data.cart.payment_collection?.id ?? checkout.paymentCollectionId,
            }).catch(() => undefined)
          : undefined
      if (session) {
        const again: Checkout = {
          cartId: checkout.cartId,
          paymentCollectionId: added.data.cart.payment_collection?.id ?? checkout.paymentCollectionId,
          sessionId: session.id,
          redirect: session.data.redirect,
          decision: "approve",
          againOf: index,
        }
        const answer = await submitApplication(again.redirect, "approve")
        if (answer.location) {
          again.returnUrl = answer.location
          again.delivery = deliveryOf(answer.location, again.redirect.fields.x_url_callback)
          again.contract = again.delivery.fields.x_gateway_reference
        }
        m.checkouts.push(again)
      }
    }
    await settled(world, m)
  }
  toString = () => `PayAgain(${this.k})`
}

/** The merchant switches the moment the plugin captures by itself, on the settings page. */
class SetCaptureOn implements Command {
  constructor(readonly captureOn: Model["captureOn"]) {}
  check = (m: Readonly<Model>) => m.captureOn !== this.captureOn
  async run(m: Model, world: World) {
    await world.api.post("/admin/paybright/settings/pp_paybright_paybright", { captureOn: this.captureOn }, world.admin)
    m.captureOn = this.captureOn
    await settled(world, m)
  }
  toString = () => `SetCaptureOn(${this.captureOn})`
}

/**
 * Records a fault the sequence armed; one armed at the same place before is replaced, so whether
 * that one fired is told now.
 */
async function armed(m: Model, fault: ArmedFault) {
  for (const earlier of m.armed.filter(
    (candidate) => candidate.place === fault.place && candidate.fired === undefined
  )) {
    earlier.fired = await earlier.settle()
  }
  m.armed.push(fault)
}

/**
 * The next answer to a movement of this contract goes wrong: the lender's, or in the virtual-card
 * store the fake Stripe's for a charge or a refund (the card network then tells the lender what
 * Stripe did), Stripe's next charge or refund whatever its card.
 */
class LenderFault implements Command {
  constructor(
    readonly k: number,
    readonly operation: "capture" | "refund" | "void",
    readonly kind: StripeFaultKind
  ) {}
  check = (m: Readonly<Model>) => m.checkouts.some(approved)
  async run(m: Model, world: World) {
    const checkout = pick(m, this.k, approved)!
    const contract = checkout.contract!
    if (world.stripe && this.operation !== "void") {
      const stripe = world.stripe
      const endpoint = this.operation === "capture" ? "charge" : "refund"
      const from = stripe.faultsFired().length
      await armed(m, {
        command: this.toString(),
        kind: `stripe.${endpoint}.${this.kind}`,
        place: `stripe ${endpoint}`,
        settle: async () =>
          stripe
            .faultsFired()
            .slice(from)
            .some((fired) => fired.endpoint === endpoint),
      })
      stripe.injectFault({ endpoint, kind: this.kind, delayMs: 2_500 })
    } else {
      const kind = this.kind as FaultKind
      const from = world.simulator.faultsFired().length
      await armed(m, {
        command: this.toString(),
        kind: `lender.${this.operation}.${kind}`,
        place: `lender ${contract} ${this.operation}`,
        settle: async () =>
          world.simulator
            .faultsFired()
            .slice(from)
            .some((fired) => fired.gatewayReference === contract && fired.operation === this.operation),
      })
      const fault = { kind, delayMs: 2_500 }
      world.simulator.injectFault(
        contract,
        this.operation === "void" ? { ...fault, operation: "void" } : { ...fault, operation: this.operation }
      )
    }
    await settled(world, m)
  }
  toString = () => `LenderFault(${this.k}, ${this.operation}, ${this.kind})`
}

/** Where Medusa itself fails once, as it fails in life: a write its database refuses (or stalls on). */
export const MEDUSA_FAILURES = {
  /**
   * A cart's lock not given back (the lock store blinks): a completion fails after authorizing its
   * payment. Armed on one checkout's cart, so no other cart spends it.
   */
  lock_give_back: { table: "locking", event: "delete", when: "old.id like 'cart\\_%'" },
  /** The payment's update after a provider's success (Medusa then deletes its Capture or Refund). */
  payment_update: { table: "payment", event: "update", when: "true" },
  /** An order's insert: a completion fails before authorizing. */
  order_insert: { table: '"order"', event: "insert", when: "true" },
  /**
   * The carry's session (the one it marks with the contract it carries) refused: the carry after
   * an order change fails, and the contract waits in no live payment for the next carry.
   */
  carry_session_insert: {
    table: "payment_session",
    event: "insert",
    when: "new.data->>'carried_contract' is not null",
  },
  /**
   * The carry's session written slowly (the database stalls 2 s): the carry holds the order's
   * contract lock meanwhile, so what meets the change (a cancel, a capture, a shipment) meets it
   * mid-carry.
   */
  carry_session_slow: {
    table: "payment_session",
    event: "insert",
    when: "new.data->>'carried_contract' is not null",
    stallSeconds: 2,
  },
} as const satisfies Record<string, { table: string; event: string; when: string; stallSeconds?: number }>
export type MedusaFailure = keyof typeof MEDUSA_FAILURES

/**
 * The trigger of a Medusa failure: a write matching `when` (and the target, if any) raises (or
 * stalls, for one with `stallSeconds`) while the failure's sequence is armed, the first time
 * only. The sequence is not rolled back with the write, so it tells afterwards whether the
 * failure fired.
 */
export function medusaFailureSql(where: MedusaFailure, target?: string): string {
  const failure: { table: string; event: string; when: string; stallSeconds?: number } = MEDUSA_FAILURES[where]
  const { table, event, when, stallSeconds } = failure
  const aimed = target ? ` and old.id = '${target.replace(/'/g, "''")}'` : ""
  const act = stallSeconds
    ? `perform pg_sleep(${stallSeconds});`
    : `raise exception 'the database refused this write (${where})';`
  return `
    create sequence if not exists paybright_model_${where};
    create or replace function paybright_model_${where}() returns trigger language plpgsql as $$
    begin
      if (${when}${aimed}) and nextval('paybright_model_${where}') = 1 then
        ${act}
      end if;
      return ${event === "delete" ? "old" : "new"};
    end $$;
    drop trigger if exists paybright_model_${where} on ${table};
    create trigger paybright_model_${where} before ${event} on ${table}
      for each row execute function paybright_model_${where}();`
}

/** A disarmed sequence stands at 1000: one armed (1, not called) raises at its first nextval. */
const DISARMED = 1000

export async function disarmMedusaFailures(world: World) {
  const pg = world.container().resolve("__pg_connection__")
  for (const where of Object.keys(MEDUSA_FAILURES))
    await pg.raw(`select setval('paybright_model_${where}', ${DISARMED})`)
}

/** Whether an armed Medusa failure raised: its sequence moved from 1-not-called. */
async function medusaFailureFired(world: World, where: MedusaFailure): Promise<boolean> {
  const { rows } = await world
    .container()
    .resolve("__pg_connection__")
    .raw(`select last_value, is_called from paybright_model_${where}`)
  return rows[0].is_called && Number(rows[0].last_value) < DISARMED
}

class MedusaFailsOnce implements Command {
  constructor(
    readonly where: MedusaFailure,
    readonly k: number
  ) {}
  check = () => true
  async run(m: Model, world: World) {
    await this.arm(m, world, this.toString())
    await settled(world, m)
  }
  /** Arms the failure, told as fired or not under `command` (the command that armed it). */
  async arm(m: Model, world: World, command: string) {
    const pg = world.container().resolve("__pg_connection__")
    // A cart's lock matters while the cart is not an order yet.
    const cart =
      this.where === "lock_give_back"
        ? (pick(m, this.k, (checkout) => !checkout.ordered) ?? pick(m, this.k, () => true))?.cartId
        : undefined
    await armed(m, {
      command,
      kind: `medusa.${this.where}`,
      place: `medusa ${this.where}`,
      settle: () => medusaFailureFired(world, this.where),
    })
    await pg.raw(`select setval('paybright_model_${this.where}', ${DISARMED})`)
    if (this.where === "lock_give_back") await pg.raw(medusaFailureSql(this.where, cart))
    await pg.raw(`select setval('paybright_model_${this.where}', 1, false)`)
    // A carry refused before is still owed until the jobs run, whether or not this one fires.
    if (this.where === "carry_session_insert" && m.carryRefusal !== "fired") m.carryRefusal = "armed"
  }
  toString = () => `MedusaFailsOnce(${this.where}${this.where === "lock_give_back" ? `, ${this.k}` : ""})`
}

/**
 * A person reads the PayBright portal and resolves the contract's record in doubt as it shows: the
 * lender made the movement if its books hold more than Medusa's by that amount (a void: the
 * contract is voided).
 */
class Resolve implements Command {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>) => m.checkouts.some(approved)
  async run(m: Model, world: World) {
    const checkout = pick(m, this.k, approved)!
    const doubt = (await recordsOfContract(world, checkout.contract!)).find((record) => record.state === "in_doubt")
    const lender = contractOf(world, checkout)
    if (doubt && lender) {
      let made: boolean
      if (doubt.kind === "void") made = lender.status === "VOIDED"
      else {
        const placed = await orderOf(world, checkout)
        const medusa = medusaCents(placed?.payments)
        const total = doubt.kind === "capture" ? "captured" : "refunded"
        made = MathBN.gt(lender[total], medusa[total])
      }
      await world.api.post(
        `/admin/paybright/records/${doubt.id}/resolve`,
        { lender_shows: made ? "done" : "nothing" },
        world.lenient
      )
    }
    await settled(world, m)
  }
  toString = () => `Resolve(${this.k})`
}

/** The merchant retries the contract's latest refused capture or void, as needs attention offers. */
class Retry implements Command {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>) => m.checkouts.some(approved)
  async run(m: Model, world: World) {
    const checkout = pick(m, this.k, approved)!
    const records = await recordsOfContract(world, checkout.contract!)
    const retried = new Set(records.map((record) => record.retry_of).filter(Boolean))
    const refused = records.filter((record) => record.state === "refused" && !retried.has(record.id)).at(-1)
    if (refused?.kind === "capture") {
      await world.api.post(`/admin/paybright/captures/${refused.id}/retry`, {}, world.lenient)
    } else if (refused?.kind === "void" && refused.reference) {
      await world.api.post(`/admin/paybright/voids/${refused.id}/retry`, {}, world.lenient)
    }
    await settled(world, m)
  }
  toString = () => `Retry(${this.k})`
}

/**
 * The plugin's jobs, as if an hour had passed (so every lock's lease has lapsed too):
 * reconciliation, the unplaced-approvals sweep, voids, contracts left uncarried, contracts of
 * cancelled orders left unvoided, and parcels whose capture never started.
 */
export class Jobs implements Command {
  check = () => true
  async run(m: Model, world: World) {
    await runJobs(world)
    await settled(world, m)
    // The reconciliation's carry has run: a contract still uncarried now is no refused carry's.
    if (m.carryRefusal === "fired") m.carryRefusal = "over"
  }
  toString = () => "Jobs()"
}

/**
 * The merchant refunds what Medusa says each standing order owes back (a negative pending
 * difference, after a return or a claim), from its payments that hold captured money, as Medusa's
 * admin offers it.
 */
export async function refundWhatIsOwed(world: World, model: Model) {
  const orders = new Set<string>()
  for (const checkout of model.checkouts) {
    const placed = await orderOf(world, checkout)
    if (!placed || placed.order.canceled_at || orders.has(placed.order.id)) continue
    orders.add(placed.order.id)
    const { data } = await world.api.get(`/admin/orders/${placed.order.id}?fields=id,summary`, world.admin)
    let owed = MathBN.mult(data.order.summary?.pending_difference ?? 0, -1)
    for (const payment of placed.payments) {
      if (!MathBN.gt(owed, 0)) break
      const medusa = medusaCents(payment)
      const amount = MathBN.min(owed, MathBN.sub(medusa.captured, medusa.refunded))
      if (!MathBN.gt(amount, 0)) continue
      const refunded = await world.api.post(
        `/admin/payments/${payment.id}/refund`,
        { amount: Number(lenderAmount(amount as never)) },
        world.lenient
      )
      if (refunded.status === 200) owed = MathBN.sub(owed, amount)
    }
  }
}

export async function runJobs(world: World) {
  const later = Date.now() + 60 * 60_000
  await leasesLapse(world)
  await reconcileMoneyRecordsWorkflow(world.container()).run({ input: { stale_after_ms: 60_000 } })
  await sweepUnplacedApprovals(world.container(), later)
  await voidFinalOrphans(world.container(), later)
  await carryMissedContracts(world.container(), later)
  await voidMissedCancellations(world.container(), later)
  await captureMissedParcels(world.container())
}

const k = fc.nat({ max: 2 })
const FAULTS: FaultKind[] = ["slow", "status_500", "bad_request", "reset_after_read"]

const shop = fc.nat({ max: 1 }).map((variant) => new Shop(variant))
const apply = fc
  .tuple(k, fc.constantFrom("approve", "approve", "approve", "decline", "leave") as fc.Arbitrary<Apply["decision"]>)
  .map(([index, decision]) => new Apply(index, decision))
const deliver = fc
  .tuple(k, fc.constantFrom("callback", "return") as fc.Arbitrary<Deliver["via"]>)
  .map(([index, via]) => new Deliver(index, via))
const changeOrder = fc
  .tuple(k, fc.constantFrom("return", "return received", "exchange", "claim") as fc.Arbitrary<ChangeOrder["kind"]>)
  .map(([index, change]) => new ChangeOrder(index, change))
const parcel = fc
  // Packing and shipping at once comes most often, so that days reach the capture at shipment.
  .tuple(
    k,
    fc.constantFrom("pack", "pack one", "ship", "pack and ship", "pack and ship") as fc.Arbitrary<Parcel["step"]>
  )
  .map(([index, step]) => new Parcel(index, step))

const medusaFails = fc
  .tuple(fc.constantFrom(...(Object.keys(MEDUSA_FAILURES) as MedusaFailure[])), k)
  .map(([where, index]) => new MedusaFailsOnce(where, index))

/**
 * Every command of a merchant's, a shopper's, the lender's and Medusa's day, with its arguments,
 * but those named in `without` (to look past a finding already known, e.g. `["EditQuantity"]`). A
 * day's story starts with a shopper: those commands come more often, so most days reach an order.
 * The virtual-card store's charges and refunds go wrong at Stripe, which may also leave a charge
 * processing or asking for an action.
 */
export function commandsFor(mode: StoreMode, without: string[] = []) {
  const movementFaults: StripeFaultKind[] =
    mode === "virtual_card" ? [...FAULTS, "processing", "requires_action"] : FAULTS
  const all = [
    shop,
    shop,
    apply,
    apply,
    deliver,
    deliver,
    deliver,
    deliver,
    parcel,
    parcel,
    parcel,
    parcel,
    parcel,
    k.map((index) => new AddItem(index)),
    changeOrder,
    changeOrder,
    fc
      .tuple(k, fc.constantFrom("up", "down") as fc.Arbitrary<EditQuantity["direction"]>)
      .map(([index, direction]) => new EditQuantity(index, direction)),
    k.map((index) => new StoreComplete(index)),
    k.map((index) => new PayAgain(index)),
    k.map((index) => new PayAgain(index)),
    fc.tuple(k, fc.boolean()).map(([index, whole]) => new PressCapture(index, whole)),
    fc.tuple(k, fc.boolean()).map(([index, all]) => new Refund(index, all)),
    k.map((index) => new Cancel(index)),
    (fc.constantFrom("shipment", "fulfillment", "manual") as fc.Arbitrary<Model["captureOn"]>).map(
      (captureOn) => new SetCaptureOn(captureOn)
    ),
    fc.oneof(
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            k,
            fc.constantFrom("capture", "refund") as fc.Arbitrary<LenderFault["operation"]>,
            fc.constantFrom(...movementFaults)
          )
          .map(([index, operation, kind]) => new LenderFault(index, operation, kind)),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(k, fc.constantFrom(...FAULTS)).map(([index, kind]) => new LenderFault(index, "void", kind)),
      }
    ),
    medusaFails,
    medusaFails,
    k.map((index) => new Resolve(index)),
    k.map((index) => new Retry(index)),
    fc.constant(new Jobs()),
    (fc.constantFrom("out", "back") as fc.Arbitrary<Stock["level"]>).map((level) => new Stock(level)),
    fc
      .tuple(
        k,
        fc.constantFrom("redelivery during capture", "two captures", "shipment during capture") as fc.Arbitrary<
          Together["pair"]
        >
      )
      .map(([index, pair]) => new Together(index, pair)),
    fc
      .tuple(k, fc.constantFrom(...CHANGE_PAIRS), fc.constantFrom(...CHANGES), fc.constantFrom(...CARRY_FAULTS))
      .map(([index, pair, change, carry]) => new Together(index, pair, change, carry)),
    fc
      .tuple(k, fc.constantFrom(...CHANGE_PAIRS), fc.constantFrom(...CHANGES), fc.constantFrom(...CARRY_FAULTS))
      .map(([index, pair, change, carry]) => new Together(index, pair, change, carry)),
    k.map((index) => new StraySession(index)),
    fc.constant(new Expiry()),
  ]
  // A command's name is what its sequence prints before the parenthesis.
  const named = (arbitrary: fc.Arbitrary<Command>) => String(fc.sample(arbitrary, 1)[0]).split("(")[0]
  const unknown = without.filter((name) => !all.some((arbitrary) => named(arbitrary) === name))
  if (unknown.length) throw new Error(`no such command to leave out: ${unknown.join(", ")}`)
  return all.filter((arbitrary) => !without.includes(named(arbitrary)))
}

/**
 * The commands a printed counterexample names (`Deliver(0, callback), Jobs()`, as fast-check prints
 * them), to replay a shrunk sequence as it was found even after the generators change.
 */
export function parseSequence(printed: string): Command[] {
  const found = [...printed.matchAll(/(\w+)\(([^)]*)\)/g)]
  if (!found.length) throw new Error(`no command in ${JSON.stringify(printed)}`)
  return found.map(([whole, name, list]) => {
    const args = list.split(",").map((arg) => arg.trim())
    const n = (at: number) => {
      const value = Number(args[at])
      if (!Number.isInteger(value) || value < 0) throw new Error(`${whole}: argument ${at + 1} is not an index`)
      return value
    }
    switch (name) {
      case "Shop":
        return new Shop(Number(args[0].replace("variant ", "")))
      case "Apply":
        return new Apply(n(0), args[1] as Apply["decision"])
      case "Deliver":
        return new Deliver(n(0), args[1] as Deliver["via"])
      case "AddItem":
        return new AddItem(n(0))
      case "PressCapture":
        return new PressCapture(n(0), args[1] === "whole")
      case "Parcel":
        return new Parcel(n(0), args[1] as Parcel["step"])
      case "Refund":
        return new Refund(n(0), args[1] === "all")
      case "Cancel":
        return new Cancel(n(0))
      case "ChangeOrder":
        return new ChangeOrder(n(0), args[1] as ChangeOrder["kind"])
      case "EditQuantity":
        return new EditQuantity(n(0), args[1] as EditQuantity["direction"])
      case "StoreComplete":
        return new StoreComplete(n(0))
      case "PayAgain":
        return new PayAgain(n(0))
      case "SetCaptureOn":
        return new SetCaptureOn(args[0] as Model["captureOn"])
      case "LenderFault":
        return new LenderFault(n(0), args[1] as LenderFault["operation"], args[2] as StripeFaultKind)
      case "MedusaFailsOnce":
        return new MedusaFailsOnce(args[0] as MedusaFailure, args[1] === undefined ? 0 : n(1))
      case "Resolve":
        return new Resolve(n(0))
      case "Retry":
        return new Retry(n(0))
      case "Jobs":
        return new Jobs()
      case "Stock":
        return new Stock(args[0] as Stock["level"])
      case "Together":
        return new Together(
          n(0),
          args[1] as Together["pair"],
          (args[2] ?? "edit down") as OrderChangeKind,
          (args[3] ?? "carry as it comes") as CarryFault
        )
      case "StraySession":
        return new StraySession(n(0))
      case "Expiry":
        return new Expiry()
      default:
        throw new Error(`${whole}: no such command`)
    }
  })
}
