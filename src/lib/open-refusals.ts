import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import { ordersOfCollections } from "./medusa-links"
import { orderOfContract } from "./order-collections"
import type { MoneyRecordRow } from "../modules/paybright/money-record-types"
import { said, type Said } from "./texts/said"

export type RefusalFacts = Pick<
  MoneyRecordRow,
  "id" | "kind" | "state" | "retry_of" | "payment_id" | "fulfillment_id" | "amount"
> & {
  created_at: Date | string
  /** The contract the movement was for: a contract carried into another payment goes on there. */
  contract?: string | null
}

/**
 * The refused captures and voids still open among `records` (a payment's, or any set holding
 * the records that could close them): nobody retried them and, for a capture, its money has not
 * moved another way since on the same contract (on its payment, or on the payment an order change
 * carried the contract into). A refused capture is made good only by what takes its money: a later
 * capture of its own parcel; later captures of no parcel (Medusa's own Capture payment, a
 * resolution) that add up to its amount, each counted toward one refusal, oldest first; or its
 * payment having nothing left to capture (`fullyCaptured`: the last parcel took everything that
 * remains). Another parcel's capture takes that parcel's money, not the refused one's.
 */
export function openRefusals<T extends RefusalFacts>(
  records: T[],
  fullyCaptured: (paymentId: string | null) => boolean = () => false
): T[] {
  const retried = new Set(records.map((record) => record.retry_of).filter(Boolean))
  const madeGood = new Set<string>()
  // What each open refusal still lacks, per contract (per payment for rows without one), in the order they were refused.
  const lacking = new Map<string | null, { record: T; amount: BigNumberInput }[]>()
  const byTime = [...records].sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime())
  for (const record of byTime) {
    if (record.kind !== "capture") continue
    const of = record.contract ?? record.payment_id
    const open = lacking.get(of) ?? []
    lacking.set(of, open)
    if (record.state === "refused" && !retried.has(record.id)) {
      open.push({ record, amount: record.amount as BigNumberInput })
      continue
    }
    if (record.state !== "done") continue
    if (record.fulfillment_id) {
      for (const refusal of open)
        if (refusal.record.fulfillment_id === record.fulfillment_id) madeGood.add(refusal.record.id)
      continue
    }
    // A retry took the money of the refusal it retries, which it closes already.
    if (record.retry_of) continue
    let left = MathBN.convert(record.amount as BigNumberInput)
    for (const refusal of open) {
      if (madeGood.has(refusal.record.id) || MathBN.lte(left, 0)) continue
      const taken = MathBN.min(left, refusal.amount)
      refusal.amount = MathBN.sub(refusal.amount, taken)
      left = MathBN.sub(left, taken)
      if (MathBN.lte(refusal.amount, 0)) madeGood.add(refusal.record.id)
    }
  }
  return records.filter(
    (record) =>
      record.state === "refused" &&
      !retried.has(record.id) &&
      !(record.kind === "capture" && (madeGood.has(record.id) || fullyCaptured(record.payment_id)))
  )
}

/**
 * Of these payments, those with nothing left to capture, so a refused capture on them has nothing
 * to take: Medusa counts them fully captured; or Medusa cancelled them and their contract lives
 * on in a payment it counts fully captured (carried after an order change), or in none at all
 * while their order is cancelled.
 */
export async function nothingLeftToCapture(
  container: MedusaContainer,
  paymentIds: string[]
): Promise<Set<string | null>> {
  if (paymentIds.length === 0) return new Set()
  const module = container.resolve(Modules.PAYMENT)
  const payments = await module.listPayments(
    { id: [...new Set(paymentIds)] },
    { select: ["id", "captured_at", "canceled_at", "payment_collection_id", "data"] }
  )
  const done = new Set<string | null>(payments.filter((payment) => payment.captured_at).map((payment) => payment.id))
  const cancelled = payments.filter((payment) => payment.canceled_at && !payment.captured_at)
  if (!cancelled.length) return done
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const orders = await ordersOfCollections<{ id: string; status: string }>(
    query,
    cancelled.map((payment) => payment.payment_collection_id),
    ["status"]
  )
  for (const payment of cancelled) {
    const order = orders.get(payment.payment_collection_id)
    const contract = (payment.data as { gateway_reference?: string } | null)?.gateway_reference
    if (!order || !contract) continue
    const { status, collections } = await orderOfContract(query, order.id)
    const carriedInto = collections
      .flatMap((collection) => collection.payments ?? [])
      .filter(
        (other) =>
          !other.canceled_at && (other.data as { gateway_reference?: string } | null)?.gateway_reference === contract
      )
    const taken = carriedInto.length
      ? (
          await module.listPayments({ id: carriedInto.map((other) => other.id) }, { select: ["id", "captured_at"] })
        ).every((other) => other.captured_at)
      : status === "canceled"
    if (taken) done.add(payment.id)
  }
  return done
}

/** Why the reconciliation refuses a record its movement never claimed: its process stopped first. */
export const STOPPED_BEFORE_START: Said = said("server_stopped_before")

/**
 * Whether a refused record is a parcel's own capture (its first attempt, made by the plugin) that
 * the reconciliation refused because its process stopped before claiming it: nothing was sent to
 * Medusa's provider or the lender, so the plugin may make it again by itself, once.
 */
export function parcelCaptureStoppedBeforeStart(
  record: Pick<MoneyRecordRow, "kind" | "state" | "trigger" | "fulfillment_id" | "said">
): boolean {
  const fact = record.said?.values?.fact
  return (
    record.kind === "capture" &&
    record.state === "refused" &&
    (record.trigger === "shipment" || record.trigger === "fulfillment") &&
    !!record.fulfillment_id &&
    record.said?.code === "capture_not_started" &&
    typeof fact === "object" &&
    "said" in fact &&
    fact.said.code === STOPPED_BEFORE_START.code
  )
}
