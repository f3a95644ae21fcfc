import { lenderAmount } from "../../src/lib/lender-cents"
import { MathBN } from "@medusajs/framework/utils"
import type { PayBrightAttentionItem } from "../../src/lib/admin-types"
import type { MoneyRecordRow } from "../../src/modules/paybright/money-record-types"
import type { ContractView } from "../../src/lenders/paybright/simulator"
import { listOpenAuthorizations, type OpenAuthorization } from "../../src/lib/authorization-expiry"
import {
  approvalOfContract,
  contractOfPayment,
  medusaCents,
  orderOf,
  recordsOfContract,
  type Checkout,
  type Model,
  type World,
} from "./world"

/** A broken promise, with the checkout it concerns, as the model prints it. */
export type Violation = {
  invariant: "I1" | "I2" | "I3" | "I4" | "I5" | "I6" | "I7" | "I8" | "I9" | "I10" | "I11"
  checkout: number
  detail: string
}

/**
 * What must hold after every command of a sequence, read from the simulator's books, Medusa's and
 * the plugin's records, in cents (`final`: once the lender has delivered every result and the jobs
 * have run past every grace period, so every approval must have ended). An entry of needs
 * attention excuses only the discrepancy it names, of its kind and amount, on its contract:
 * nothing else about that contract.
 *
 * - I1 ledgers: for captures and for refunds apart, the lender's total over the contracts an order
 *   carries equals Medusa's over every payment of the order (all its collections, cancelled ones
 *   included); a difference is allowed only where it is the sum of some of the `in_doubt` entries
 *   of that movement on those contracts. A contract without an order holds nothing captured or
 *   refunded, but what such entries name.
 * - I2 voids: the lender voided the contract exactly when Medusa cancelled its payments with
 *   nothing captured: no order stands on a voided contract or on a cancelled payment, and a payment
 *   cancelled with nothing captured is voided at the lender, unless an `in_doubt` void or an
 *   `unvoided_contract` entry names the contract; and a contract is voided only with nothing
 *   captured. While a carry the model's Medusa failure refused is owed (until the jobs have run),
 *   a standing order's contract is in no live payment: those two checks wait for the jobs.
 * - I3 records: for captures and for refunds apart, the lender's total equals the plugin's `done`
 *   records plus some of its `in_doubt` ones (a movement made twice and recorded twice breaks
 *   I5 or I1 instead); and each parcel is captured once: at most one `done` or `in_doubt` capture
 *   record per fulfillment.
 * - I4 (final) approvals: every approval ended. `ordered`: its order exists and one of its payments
 *   carries the contract; `voided`: the lender voided the contract (or a void entry names it);
 *   `handled`: the merchant said so. An approval still `approved` or `orphaned` is excused only by
 *   its own `orphaned_approval` entry or a void entry naming its contract.
 * - I5 amounts: no order's total above its approved amount; the lender's captured total never
 *   above the most the order was ever worth (its total, plus the credit lines Medusa takes off it
 *   for a refund; a return lowers it after a capture), nor above the value of its packed and shipped parcels (items' share of their line
 *   totals, shipping once, all it is worth once all is packed) plus what the merchant captured by
 *   hand (Medusa's Capture and its retries, done or in doubt); refunds never above what was
 *   captured, at the lender and on each Medusa payment. An order the merchant raised (an edit up,
 *   an exchange) may total above its approval.
 * - I6 order changes: a contract whose order stands and was placed on it is never voided unless
 *   the merchant pressed Cancel on the order (no return, exchange, claim or edit costs the shopper
 *   the loan, whatever needs attention says); (final) the lender's captured minus refunded never
 *   exceeds what the order totals now (Medusa's current order total, refund credit lines put
 *   back), once the merchant refunded what Medusa says is owed back (but for refunds an `in_doubt`
 *   entry names); and a contract no order was placed on holds nothing captured.
 * - I7 expiry list: what the authorizations' expiry list (the morning job's, the panel's "still to
 *   capture") offers to capture on an order is never more than the order owes (Medusa's pending
 *   difference) nor than its contracts can still capture at the lender (authorized less captured,
 *   but for captures an `in_doubt` entry names), and it offers nothing on a voided contract or a
 *   cancelled order.
 * - I8 cancelled orders: no contract is left live under an order the merchant cancelled. A contract
 *   the order was placed on or carried by reads, at the lender, `VOIDED`, or partly or fully
 *   captured (`Complete`, `FINAL`: the lender has no partial void, and what was captured is I1's
 *   and I9's); one still `PENDING` (nothing captured, not voided) is excused only by an entry of
 *   needs attention naming the contract that says why it could not be voided: an
 *   `unvoided_contract` (a refused void), an `in_doubt` void, or an `in_doubt` capture (a void
 *   waits until a person knows whether the lender captured).
 * - I9 no capture above what the order owes: whenever the lender's captured total over the
 *   order's contracts rose, the lender's captured less refunded is at most what the order totals
 *   (Medusa's current order total, refund credit lines put back, as I6 reads it), as it stood
 *   before or after that command: a capture raced by an order change may have been right for the
 *   order as it was. I5 holds captures to the most the order was ever worth and I6 to its total
 *   once what is owed back has been refunded at the end of the day: neither sees a capture made
 *   after an edit down and then refunded away.
 * - I10 records on cancelled payments: every money record of the contracts on a payment Medusa
 *   cancelled (an order change's, an order cancel's) is `done`, or resolved by a person, or
 *   retried, or (a refused capture) made good since by its parcel's capture or the merchant's
 *   Capture of the same payment, or named by an entry of needs attention (its `record_id`); a
 *   `pending` one only while its movement may still be under way, never at the end of the day.
 * - I11 a shopper's session on an order: the Store API refuses (400) every PayBright session the
 *   shopper asks for on one of an order's payment collections (command StraySession), whether or
 *   not an order change and its carry are under way.
 */
export async function violations(world: World, model: Model, final: boolean): Promise<Violation[]> {
  const found: Violation[] = []
  const { data } = await world.api.get("/admin/paybright/attention", world.admin)
  const entries = data.items as PayBrightAttentionItem[]
  const open = await listOpenAuthorizations(world.container())
  for (const [index, checkout] of model.checkouts.entries()) {
    found.push(
      ...(await checkoutViolations(world, checkout, index, entries, open, final, model.carryRefusal === "fired"))
    )
  }
  return found
}

const max = (a: bigint | undefined, b: bigint) => (a !== undefined && a > b ? a : b)

/** The sums some of these amounts (in cents) can make, the empty sum included. */
function subsetSums(amounts: bigint[]): Set<bigint> {
  let sums = new Set<bigint>([0n])
  for (const amount of amounts) sums = new Set([...sums, ...[...sums].map((sum) => sum + amount)])
  return sums
}

/**
 * An amount in cents, rounded as the lender is asked: Medusa's exact decimals can leave an order's
 * total a fraction of a cent below zero once the merchant refunded the cents the lender holds.
 */
const cents = (amount: unknown): bigint => {
  const negative = MathBN.lt(amount as never, 0)
  const whole = BigInt(lenderAmount((negative ? MathBN.mult(amount as never, -1) : amount) as never).replace(".", ""))
  return negative ? -whole : whole
}
const text = (value: bigint) =>
  `${value < 0n ? "-" : ""}${(value < 0n ? -value : value) / 100n}.${String((value < 0n ? -value : value) % 100n).padStart(2, "0")}`

async function checkoutViolations(
  world: World,
  checkout: Checkout,
  index: number,
  entries: PayBrightAttentionItem[],
  open: OpenAuthorization[],
  final: boolean,
  carryRefused: boolean
): Promise<Violation[]> {
  if (!checkout.contract) return []
  const found: Violation[] = []
  const fail = (invariant: Violation["invariant"], detail: string) => found.push({ invariant, checkout: index, detail })
  const placed = await orderOf(world, checkout)
  const payments: any[] = placed?.payments ?? []
  // Every contract the order carries, and the one its shopper was approved for.
  const contracts = [...new Set([checkout.contract, ...payments.flatMap((p) => contractOfPayment(p) ?? [])])]
  const lenders = contracts.flatMap((contract) => world.simulator.contract(contract) ?? []) as ContractView[]
  const lender = world.simulator.contract(checkout.contract)
  if (!lender) return []
  const records: MoneyRecordRow[] = (
    await Promise.all(contracts.map((contract) => recordsOfContract(world, contract)))
  ).flat()
  const named = (kind: PayBrightAttentionItem["kind"], movement?: PayBrightAttentionItem["movement"]) =>
    entries.filter(
      (entry) =>
        entry.kind === kind &&
        (movement === undefined || entry.movement === movement) &&
        !!entry.contract &&
        contracts.includes(entry.contract)
    )
  // A movement still under way (its subscriber started after the command was answered) explains a
  // gap for now; once the day is over, nothing may be.
  const underWay = !final && records.some((record) => record.state === "pending")
  const voidNamed = named("in_doubt", "void").length > 0 || named("unvoided_contract").length > 0
  const lenderTotal = (kind: "captured" | "refunded") =>
    lenders.reduce((sum, contract) => sum + cents(contract[kind]), 0n)

  // I1
  const medusa = medusaCents(payments)
  for (const [kind, movement] of [
    ["captured", "capture"],
    ["refunded", "refund"],
  ] as const) {
    const gap = lenderTotal(kind) - cents(medusa[kind])
    const doubts = named("in_doubt", movement).map((entry) => cents(entry.amount))
    const explained = subsetSums(doubts).has(gap < 0n ? -gap : gap)
    if (gap !== 0n && !explained && !underWay) {
      fail(
        "I1",
        `${placed ? `order ${placed.order.id}` : "no order"}: lender ${kind} ${text(lenderTotal(kind))}, Medusa ${medusa[kind]} over ${payments.length} payment(s); in-doubt ${movement}s named: ${doubts.map(text).join(", ") || "none"}`
      )
    }
  }

  // I2
  const standing = !!placed && placed.order.status !== "canceled" && !placed.order.canceled_at
  const ours = payments.filter((payment) => contractOfPayment(payment) === checkout.contract)
  // The order was placed on this contract, or a live payment of it carries the contract (an earlier
  // approval of the same cart is neither once it is voided).
  const approval = await approvalOfContract(world, checkout.contract)
  const placedOnIt = !!placed && approval?.state === "ordered" && approval.order_id === placed.order.id
  const carriedByIt = placedOnIt || ours.some((payment) => !payment.canceled_at)
  // A carry Medusa refused leaves a standing order's contract in no live payment until the jobs
  // carry it: not yet a broken promise.
  const carryOwed = carryRefused && !final && standing
  if (!voidNamed && !underWay) {
    if (standing && carriedByIt && lender.status === "VOIDED") {
      fail("I2", `order ${placed!.order.id} stands on voided contract ${checkout.contract}`)
    }
    if (standing && placedOnIt && ours.length && ours.every((payment) => payment.canceled_at) && !carryOwed) {
      fail("I2", `order ${placed!.order.id} stands on a cancelled payment`)
    }
    if (
      !carryOwed &&
      ours.length &&
      ours.every((payment) => payment.canceled_at) &&
      cents(lender.captured) === 0n &&
      lender.status !== "VOIDED"
    ) {
      fail(
        "I2",
        `Medusa cancelled the payment of contract ${checkout.contract} with nothing captured; the lender did not void it`
      )
    }
  }
  if (lender.status === "VOIDED" && cents(lender.captured) !== 0n) {
    fail("I2", `contract ${checkout.contract} voided with ${lender.captured} captured`)
  }

  // I3
  for (const [kind, movement, made] of [
    ["captured", "capture", lender.captures],
    ["refunded", "refund", lender.refunds],
  ] as const) {
    const own = records.filter((record) => record.kind === movement && record.contract === checkout.contract)
    const done = own.filter((record) => record.state === "done").reduce((sum, r) => sum + cents(r.amount), 0n)
    const doubts = own.filter((record) => record.state === "in_doubt").map((record) => cents(record.amount))
    const extra = cents(lender[kind]) - done
    if (!underWay && !subsetSums(doubts).has(extra)) {
      fail(
        "I3",
        `the lender ${kind} ${lender[kind]} in ${made.length} movement(s); done records ${text(done)}, in doubt ${doubts.map(text).join(", ") || "none"}`
      )
    }
  }
  const perParcel = new Map<string, number>()
  for (const record of records) {
    if (record.kind !== "capture" || !record.fulfillment_id) continue
    if (record.state !== "done" && record.state !== "in_doubt") continue
    perParcel.set(record.fulfillment_id, (perParcel.get(record.fulfillment_id) ?? 0) + 1)
  }
  for (const [parcel, times] of perParcel) {
    if (times > 1) fail("I3", `parcel ${parcel} captured ${times} times (done or in doubt)`)
  }

  // I4
  if (final) {
    const ownEntry = entries.some(
      (entry) =>
        entry.kind === "orphaned_approval" &&
        (entry.approval_id === approval?.id || entry.contract === checkout.contract)
    )
    if (!approval) fail("I4", `contract ${checkout.contract} approved at the lender has no approval row`)
    else if (approval.state === "ordered") {
      if (!placed) fail("I4", `approval ${approval.id} is ordered, but its order is gone`)
      else if (!ours.length)
        fail("I4", `approval ${approval.id} is ordered, but no payment of order ${placed.order.id} carries it`)
    } else if (approval.state === "voided") {
      if (lender.status !== "VOIDED" && !voidNamed)
        fail("I4", `approval ${approval.id} is voided, the lender did not void it`)
    } else if (approval.state !== "handled" && !ownEntry && !voidNamed) {
      fail("I4", `approval ${approval.id} is ${approval.state} (${approval.reason ?? "-"}), not ended and not listed`)
    }
  }

  // I5
  if (placed) {
    // The approval the order was placed on: an earlier one of the same cart was for another total.
    if (approval && placedOnIt && !checkout.raisedByMerchant && cents(placed.order.total) > cents(approval.amount)) {
      fail(
        "I5",
        `order ${placed.order.id} totals ${lenderAmount(placed.order.total as never)}, approved ${approval.amount}`
      )
    }
    const captured = lenderTotal("captured")
    // A return or claim lowers what the order is worth after the capture: a capture is held to the
    // most the order (and its parcels) was ever worth; what is owed back is I6's, once refunded.
    const worth = (checkout.highestWorth = max(checkout.highestWorth, worthOf(placed.order)))
    if (captured > worth) {
      fail("I5", `lender captured ${text(captured)} of order ${placed.order.id} worth at most ${text(worth)}`)
    }
    const packed = packedValue(placed.order)
    const value = (checkout.highestPacked = max(checkout.highestPacked, packed.value))
    const slack = packed.slack
    const byHand = handCaptured(records)
    if (captured > value + byHand + slack) {
      fail(
        "I5",
        `lender captured ${text(captured)}: parcels packed or shipped are worth ${text(value)}, the merchant captured ${text(byHand)} by hand`
      )
    }
    for (const payment of payments) {
      const own = medusaCents(payment)
      if (cents(own.refunded) > cents(own.captured)) {
        fail("I5", `Medusa payment ${payment.id} refunded ${own.refunded} of ${own.captured} captured`)
      }
    }
  }
  if (cents(lender.refunded) > cents(lender.captured)) {
    fail("I5", `lender refunded ${lender.refunded} of ${lender.captured} captured`)
  }

  // I6
  if (standing && placedOnIt && !checkout.cancelPressed && lender.status === "VOIDED") {
    fail(
      "I6",
      `order ${placed!.order.id} stands, never cancelled by the merchant, on voided contract ${checkout.contract}`
    )
  }
  if (
    final &&
    approval &&
    approval.state !== "ordered" &&
    approval.state !== "handled" &&
    cents(lender.captured) > 0n
  ) {
    fail("I6", `contract ${checkout.contract} no order was placed on (${approval.state}) captured ${lender.captured}`)
  }
  if (final && standing && placedOnIt) {
    const now = await totalNow(world, placed!.order.id)
    const kept = lenderTotal("captured") - lenderTotal("refunded")
    // The merchant's refund of what is owed back may itself be in doubt: named, it explains that much.
    const refundsInDoubt = named("in_doubt", "refund").reduce((sum, entry) => sum + cents(entry.amount), 0n)
    if (kept - now > refundsInDoubt) {
      fail(
        "I6",
        `the lender holds ${text(kept)} captured less refunded of order ${placed!.order.id}, which totals ${text(now)} now; in-doubt refunds named: ${text(refundsInDoubt)}`
      )
    }
  }
  // I8
  const cancelled = !!placed && !standing
  const ofOrder = !!placed && (approval?.order_id === placed.order.id || ours.length > 0)
  if (cancelled && ofOrder && lender.status === "PENDING" && !underWay) {
    const excused = voidNamed || named("in_doubt", "capture").length > 0
    if (!excused) {
      const voids = records.filter((record) => record.kind === "void" && record.contract === checkout.contract)
      fail(
        "I8",
        `order ${placed!.order.id} is cancelled; contract ${checkout.contract} is still PENDING at the lender (authorized ${lender.authorized}, nothing captured, not voided); void records: ${voids.map((record) => `${record.state} (${record.trigger})`).join(", ") || "none"}; needs attention names it nowhere`
      )
    }
  }

  // I9
  if (standing && (placedOnIt || carriedByIt)) {
    const now = await totalNow(world, placed!.order.id)
    const captured = lenderTotal("captured")
    const kept = captured - lenderTotal("refunded")
    const before = checkout.lastLook
    const ceiling = max(before?.worth, now)
    if (before && captured > before.captured) {
      if (underWay) {
        // Looked at again once the movement has ended, against the highest total seen meanwhile.
        checkout.lastLook = { captured: before.captured, worth: ceiling }
      } else {
        if (kept > ceiling) {
          fail(
            "I9",
            `the lender's captured total of order ${placed!.order.id} rose from ${text(before.captured)} to ${text(captured)}: it holds ${text(kept)} captured less refunded, the order totals ${text(now)} now (${text(before.worth)} before)`
          )
        }
        checkout.lastLook = { captured, worth: now }
      }
    } else {
      checkout.lastLook = { captured, worth: now }
    }
  }

  // I10
  const cancelledPayments = new Set(payments.filter((payment) => payment.canceled_at).map((payment) => payment.id))
  const retriedRecords = new Set(records.map((record) => record.retry_of).filter(Boolean))
  const listedRecords = new Set(entries.map((entry) => entry.record_id).filter(Boolean))
  for (const record of records) {
    if (!record.payment_id || !cancelledPayments.has(record.payment_id)) continue
    if (record.state === "done" || record.resolved_at || retriedRecords.has(record.id)) continue
    if (listedRecords.has(record.id) || (record.state === "pending" && !final)) continue
    // A refused capture whose money moved since: its parcel's own capture, or the merchant's
    // Capture on the same payment (needs attention counts those toward it, and no longer lists it).
    const madeGood =
      record.kind === "capture" &&
      records.some(
        (other) =>
          other.kind === "capture" &&
          other.state === "done" &&
          new Date(other.created_at) > new Date(record.created_at) &&
          (record.fulfillment_id
            ? other.fulfillment_id === record.fulfillment_id
            : !other.fulfillment_id && other.payment_id === record.payment_id)
      )
    if (madeGood) continue
    fail(
      "I10",
      `${record.state} ${record.kind} record ${record.id} (${text(cents(record.amount))}, ${record.trigger}) of contract ${record.contract} on payment ${record.payment_id}, which Medusa cancelled: not done, resolved or retried, and needs attention does not list it`
    )
  }

  // I11
  for (const answer of checkout.straySessions ?? []) {
    fail("I11", `the Store API did not refuse the shopper's PayBright session on order ${placed?.order.id}: ${answer}`)
  }

  // I7
  const listed = open.filter((entry) => payments.some((payment) => payment.id === entry.payment_id))
  if (listed.length && !underWay) {
    const offered = listed.reduce((sum, entry) => sum + cents(entry.uncaptured), 0n)
    // Negative when the order owes the shopper back: then it owes nothing to capture.
    const owed = max(standing ? cents(await pendingDifference(world, placed!.order.id)) : 0n, 0n)
    const capturable = lenders
      .filter((contract) => contract.status !== "VOIDED")
      .reduce((sum, contract) => sum + cents(contract.authorized) - cents(contract.captured), 0n)
    // A capture in doubt may have been made at the lender and not in Medusa: it is named, not offered twice.
    const doubtful = subsetSums(named("in_doubt", "capture").map((entry) => cents(entry.amount)))
    if (offered > owed || (offered > capturable && !doubtful.has(offered - capturable))) {
      fail(
        "I7",
        `the expiry list offers ${text(offered)} to capture on ${standing ? "" : "cancelled "}order ${placed?.order.id}, which owes ${text(owed)}; its contracts can still capture ${text(capturable)}`
      )
    }
  }
  return found
}

/** What the order totals now: Medusa's current order total, with the credit lines of refunds put back. */
async function totalNow(world: World, orderId: string): Promise<bigint> {
  const { data } = await world.api.get(
    `/admin/orders/${orderId}?fields=id,total,credit_line_total,summary`,
    world.admin
  )
  return cents(data.order.summary?.current_order_total ?? data.order.total) + cents(data.order.credit_line_total ?? 0)
}

async function pendingDifference(world: World, orderId: string): Promise<unknown> {
  const { data } = await world.api.get(`/admin/orders/${orderId}?fields=id,summary`, world.admin)
  return data.order.summary?.pending_difference ?? 0
}

/**
 * What an order is worth to the merchant: its total, with the credit lines Medusa takes off the
 * total when the merchant refunds put back (the refund is counted as a refund, not as less sold).
 */
function worthOf(order: any): bigint {
  return cents(order.total) + cents(order.credit_line_total ?? 0)
}

/**
 * What an order's packed (and shipped) parcels are worth: each line's share of its total by the
 * quantity packed, shipping once a parcel exists, the whole total once everything is packed; with
 * a cent per line of rounding.
 */
function packedValue(order: any): { value: bigint; slack: bigint } {
  const items: any[] = order.items ?? []
  const packed = (item: any) => Number(item.detail?.fulfilled_quantity ?? 0)
  if (items.length && items.every((item) => packed(item) >= Number(item.quantity))) {
    return { value: worthOf(order), slack: 0n }
  }
  let value = 0n
  for (const item of items) {
    if (!packed(item) || !Number(item.quantity)) continue
    value += cents(MathBN.div(MathBN.mult(item.total ?? 0, packed(item)), item.quantity))
  }
  if (value > 0n) value += cents(order.shipping_total ?? 0)
  return { value, slack: BigInt(items.length) }
}

/** What the merchant captured by hand: Medusa's Capture and the retries of one, done or in doubt. */
function handCaptured(records: MoneyRecordRow[]): bigint {
  const byId = new Map(records.map((record) => [record.id, record]))
  const origin = (record: MoneyRecordRow): MoneyRecordRow => {
    let at = record
    for (let hops = 0; at.retry_of && byId.has(at.retry_of) && hops < 50; hops++) at = byId.get(at.retry_of)!
    return at
  }
  return records
    .filter((record) => record.kind === "capture" && (record.state === "done" || record.state === "in_doubt"))
    .filter((record) => origin(record).trigger === "admin")
    .reduce((sum, record) => sum + cents(record.amount), 0n)
}
