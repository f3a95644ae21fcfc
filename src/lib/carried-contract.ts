import type { BigNumberInput } from "@medusajs/framework/types"
import { MathBN, PaymentCollectionStatus } from "@medusajs/framework/utils"
import { exactText, lenderAmount, toCents } from "./lender-cents"
import { totalOf, type MedusaAmountRow } from "./totals"
import { paymentDataSchema, type PaymentData } from "./session-data"

/**
 * A PayBright contract outlives the Medusa payment it was authorized on when Medusa changes the
 * order. Confirming a return, an exchange, a claim or an order edit ends in Medusa's
 * `createOrUpdateOrderPaymentCollectionWorkflow`: while the order's collection is still authorized
 * and something is pending, Medusa marks that collection canceled (or partially captured), then
 * cancels its payments not fully captured, and opens a new collection for what the order still
 * owes. The shopper's loan stays: the plugin does not void it, and carries the contract into the
 * new collection as a new PayBright payment for what the order owes, up to what the contract
 * still covers. Its captures and refunds then go on against the same contract.
 */

/** What a PayBright payment's cancellation is, read from Medusa's rows when it happens. */
export type CancellationFacts = {
  /** Medusa cancelled this payment already (a second cancellation, such as an order cancel later). */
  alreadyCanceled: boolean
  /** The payment's collection's status at that moment. */
  collectionStatus: string
  /** The merchant's order cancellation prepared a void of it (see prepareCancellationStep). */
  prepared: boolean
}

/**
 * Whether Medusa is replacing the payment's collection after an order change: its workflow sets
 * the collection canceled (or partially captured) before cancelling the payment, where an order
 * cancel cancels the payment first and a completion being undone leaves the collection as it was.
 */
export function replacedByOrderChange(facts: CancellationFacts): boolean {
  if (facts.prepared || facts.alreadyCanceled) return false
  return (
    facts.collectionStatus === PaymentCollectionStatus.CANCELED ||
    facts.collectionStatus === PaymentCollectionStatus.PARTIALLY_CAPTURED
  )
}

/** One of the order's payments, as Medusa's query answers it. */
export type OrderPaymentRow = {
  id: string
  provider_id: string
  amount: BigNumberInput
  raw_amount?: BigNumberInput
  canceled_at?: unknown
  data: unknown
  captures?: MedusaAmountRow[] | null
}

/** An order's collection, as Medusa's query answers it. */
export type OrderCollectionRow = {
  id: string
  status: string
  amount: BigNumberInput
  raw_amount?: BigNumberInput
  currency_code: string
  payments?: OrderPaymentRow[] | null
  payment_sessions?: { id: string; provider_id: string; status: string; data?: unknown }[] | null
}

/** What the lender holds captured on a contract, from every Medusa payment it was authorized on. */
export function capturedOnContract(payments: OrderPaymentRow[], contract: string): string {
  const cents = payments
    .filter((payment) => paymentDataSchema.safeParse(payment.data).data?.gateway_reference === contract)
    .reduce((sum, payment) => sum + toCents(lenderAmount(totalOf(payment.captures))), 0n)
  return exactText(MathBN.div(cents.toString(), 100))
}

export type CarryPlan =
  | { carry: false; why: string }
  | {
      carry: true
      /** The collection Medusa opened for what the order owes. */
      collection: { id: string; currency_code: string }
      /** A PayBright session already opened in it by an earlier attempt, to authorize rather than open another. */
      session_id?: string
      /** What the new payment is authorized for: what the order owes, up to what the contract covers. */
      amount: string
      /** What the order owes that the contract cannot cover (an edit above the approved amount), "0" when none. */
      uncovered: string
      /** The payment the contract was last authorized on, whose data the new payment takes over. */
      from: { id: string; provider_id: string; data: PaymentData }
    }

/**
 * Whether an order's contract is to be carried into the collection Medusa opened, and for what.
 * `approved`: the contract of the order's `ordered` approval and its approved amount.
 */
export function carryPlan(
  collections: OrderCollectionRow[],
  approved: { contract: string; amount: string }
): CarryPlan {
  const payments = collections.flatMap((collection) => collection.payments ?? [])
  const ofContract = payments.filter(
    (payment) => paymentDataSchema.safeParse(payment.data).data?.gateway_reference === approved.contract
  )
  if (ofContract.some((payment) => !payment.canceled_at)) {
    return { carry: false, why: "the contract is held by a live payment" }
  }
  const from = ofContract.at(-1)
  if (!from) return { carry: false, why: "no payment of the order was authorized on the contract" }
  const open = collections.filter(
    (collection) =>
      (collection.status === PaymentCollectionStatus.NOT_PAID ||
        collection.status === PaymentCollectionStatus.AWAITING) &&
      MathBN.gt(collection.raw_amount ?? collection.amount, 0)
  )
  const collection = open.at(-1)
  if (!collection) return { carry: false, why: "the order has no collection waiting for payment" }
  const covered = MathBN.sub(approved.amount, capturedOnContract(payments, approved.contract))
  if (!MathBN.gt(covered, 0)) return { carry: false, why: "the contract is captured in full" }
  const owed = collection.raw_amount ?? collection.amount
  const amount = toCents(lenderAmount(owed)) <= toCents(covered) ? exactText(owed) : lenderAmount(covered)
  const session = (collection.payment_sessions ?? []).find(
    (candidate) => candidate.provider_id === from.provider_id && candidate.status !== "authorized"
  )
  return {
    carry: true,
    collection: { id: collection.id, currency_code: collection.currency_code },
    session_id: session?.id,
    amount,
    uncovered: exactText(MathBN.max(MathBN.sub(owed, amount), 0)),
    from: { id: from.id, provider_id: from.provider_id, data: paymentDataSchema.parse(from.data) },
  }
}

/**
 * The data of the payment a contract is carried into: the contract's own facts, taken from the
 * payment it was authorized on before (its application's reference, which the lender knows the
 * order by, its channel and capture moment stay), without that payment's card charges, and with
 * what the contract's earlier payments captured, so that the shipping is captured once and a later
 * cancellation knows the contract is partly captured.
 */
export function carriedPaymentData(from: PaymentData, capturedBefore: string): PaymentData {
  const { charges: _charges, ...contract } = from
  return { ...contract, captured_before: capturedBefore }
}
