import type { BigNumberInput } from "@medusajs/framework/types"
import { MathBN, PaymentCollectionStatus } from "@medusajs/framework/utils"
import { exactText, lenderAmount, toCents } from "./lender-cents"
import { totalOf, type MedusaAmountRow } from "./totals"
import { paymentDataSchema, type PaymentData } from "./session-data"
import { isPayBright } from "../storefront/provider"

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

/** A payment session of an order's collection, as Medusa's query answers it. */
export type OrderSessionRow = {
  id: string
  provider_id: string
  status: string
  amount?: BigNumberInput
  raw_amount?: BigNumberInput
  data?: unknown
}

/** An order's collection, as Medusa's query answers it. */
export type OrderCollectionRow = {
  id: string
  status: string
  amount: BigNumberInput
  raw_amount?: BigNumberInput
  currency_code: string
  payments?: OrderPaymentRow[] | null
  payment_sessions?: OrderSessionRow[] | null
}

/** An order as its contract's carry and void read it: its status and every collection, oldest first. */
export type OrderOfContract = { status: string; collections: OrderCollectionRow[] }

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
      /** The session an earlier carry opened in it for this contract and amount, to authorize rather than open another. */
      session_id?: string
      /** Every other PayBright session waiting in that collection: none is the carry's, and each is removed. */
      stray_session_ids: string[]
      /** What the new payment is authorized for: what the order owes, up to what the contract covers. */
      amount: string
      /** What the order owes that the contract cannot cover (an edit above the approved amount), "0" when none. */
      uncovered: string
      /** The payment the contract was last authorized on, whose data the new payment takes over. */
      from: { id: string; provider_id: string; data: PaymentData }
    }

/** The order's payments authorized on the contract, oldest first. */
function paymentsOfContract(order: OrderOfContract, contract: string): OrderPaymentRow[] {
  return order.collections
    .flatMap((collection) => collection.payments ?? [])
    .filter((payment) => paymentDataSchema.safeParse(payment.data).data?.gateway_reference === contract)
}

/**
 * Whether a session is the one a carry opens for this contract and amount: the carry's mark
 * (`carried_contract`, which initiatePayment keeps) and the amount to the cent. Any other session
 * (a shopper's, or a carry's from before the order changed again) authorizes nothing.
 */
export function isCarrySession(
  session: Pick<OrderSessionRow, "provider_id" | "amount" | "raw_amount" | "data">,
  carry: { provider_id: string; contract: string; amount: BigNumberInput }
): boolean {
  const mark = (session.data as { carried_contract?: unknown } | null | undefined)?.carried_contract
  const amount = session.raw_amount ?? session.amount
  return (
    session.provider_id === carry.provider_id &&
    mark === carry.contract &&
    amount !== undefined &&
    toCents(lenderAmount(amount)) === toCents(lenderAmount(carry.amount))
  )
}

/**
 * Whether an order's contract is to be carried into the collection Medusa opened, and for what.
 * `approved`: the contract of the order's `ordered` approval and its approved amount. The carry's
 * own session counts (isCarrySession); every other PayBright session waiting in the collection is
 * listed to be removed, so that none stands in its way.
 */
export function carryPlan(order: OrderOfContract, approved: { contract: string; amount: string }): CarryPlan {
  if (order.status === "canceled") return { carry: false, why: "the order is cancelled" }
  const { collections } = order
  const payments = collections.flatMap((collection) => collection.payments ?? [])
  const ofContract = paymentsOfContract(order, approved.contract)
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
  const waiting = (collection.payment_sessions ?? []).filter(
    (session) => isPayBright(session.provider_id) && session.status !== "authorized"
  )
  const own = waiting.find((session) =>
    isCarrySession(session, { provider_id: from.provider_id, contract: approved.contract, amount })
  )
  return {
    carry: true,
    collection: { id: collection.id, currency_code: collection.currency_code },
    session_id: own?.id,
    stray_session_ids: waiting.filter((session) => session !== own).map((session) => session.id),
    amount,
    uncovered: exactText(MathBN.max(MathBN.sub(owed, amount), 0)),
    from: { id: from.id, provider_id: from.provider_id, data: paymentDataSchema.parse(from.data) },
  }
}

/** What the plugin's books hold of a contract's movements, for its void after the order's cancellation. */
export type ContractMovements = {
  /** Void records of the contract, in any state: a contract is voided once, and a refused void waits for a person. */
  voids: number
  /** Capture records of the contract running or in doubt: the lender may hold a capture Medusa has not booked. */
  open_captures: number
}

export type CancellationVoidPlan =
  | { void: false; why: string }
  | {
      void: true
      /** The payment the contract was last authorized on (cancelled by Medusa), which the void's record names. */
      from: { id: string; provider_id: string; data: PaymentData }
    }

/**
 * Whether a cancelled order's contract is still to be voided: the contract, not a payment, is
 * what a cancellation voids. Medusa voids it through the provider when a live payment holds it;
 * when an order change had cancelled that payment before the carry made another (the merchant
 * cancelled in between), no payment of Medusa's is left to cancel, and the plugin voids it
 * itself. Never a contract partly captured (the lender has no partial void), one with a capture
 * running or in doubt, or one whose void is recorded already.
 */
export function cancellationVoidPlan(
  order: OrderOfContract,
  approved: { contract: string },
  movements: ContractMovements
): CancellationVoidPlan {
  if (order.status !== "canceled") return { void: false, why: "the order is not cancelled" }
  const ofContract = paymentsOfContract(order, approved.contract)
  const from = ofContract.at(-1)
  if (!from) return { void: false, why: "no payment of the order was authorized on the contract" }
  if (ofContract.some((payment) => !payment.canceled_at)) {
    return { void: false, why: "a live payment holds the contract: Medusa's cancellation of it voids or refunds" }
  }
  if (movements.voids > 0) return { void: false, why: "the contract's void is recorded already" }
  if (movements.open_captures > 0) return { void: false, why: "a capture of the contract is running or in doubt" }
  const payments = order.collections.flatMap((collection) => collection.payments ?? [])
  if (MathBN.gt(capturedOnContract(payments, approved.contract), 0)) {
    return { void: false, why: "the contract is partly captured: PayBright has no partial void" }
  }
  return { void: true, from: { id: from.id, provider_id: from.provider_id, data: paymentDataSchema.parse(from.data) } }
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
