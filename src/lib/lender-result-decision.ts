import { MedusaError } from "@medusajs/framework/utils"
import { isAmount, normalizeAmount } from "./texts/amount"
import type { ApplicationOutcome } from "../lenders/lender"
import { placementErrorOf } from "./approval-messages"
import { supersedes, type OrphanReason } from "../modules/paybright/approval-reasons"
import { lenderAmount } from "./lender-cents"
import type { PaymentChannel } from "./payment-channel"
import type { ApprovalRecord, RecordApprovalInput } from "./approval-record"
import type { Checkout } from "./find-checkout"
import { isBusy } from "./payment-lock"

/** What came of a result delivered by the lender's callback or the shopper's return. */
export type ApplicationResultOutcome =
  | { kind: "placed"; orderId: string; countryCode?: string }
  /** Approved and recorded, but no order yet: a completion is running, or the virtual card is late. */
  | { kind: "processing"; countryCode?: string }
  | { kind: "declined" | "pending"; countryCode?: string }
  /** Approved, recorded, and reported to the merchant: it will not become an order. */
  | { kind: "orphaned"; reason: string; countryCode?: string }
  | { kind: "rejected"; status: 400 | 401; reason: string }
  /** The signed result of the plugin's own order-management call (a void): answered, nothing else. */
  | { kind: "acknowledged" }

/** A PayBright registration in force, as the decision reads it: no secret. */
export type RegistrationFacts = {
  provider_id: string
  /** The API key (x_account_id) it signs for. */
  account_id: string
  capture_mode: "in_store" | "virtual_card"
  /** virtualCardGraceMinutes: how long an approval may wait for its order. */
  grace_minutes: number
  channel: PaymentChannel
  /** Whether the delivered result's transaction type suits its capture mode (see acceptsTransactionType). */
  accepts_transaction_type: boolean
}

/** Whether a contract's virtual card was retrieved, and when (ISO time). */
export type CardRetrieval = { retrieved: true; at: string } | { retrieved: false }

/**
 * Why this delivery's attempt to place the order failed, told by the error's type: another request
 * holds the cart (`busy`), a payment Medusa cancelled (refused before the completion), a refusal
 * of the cart itself (`permanent`), or anything else (a crash, a lock inside Medusa, a dropped
 * connection).
 */
export type PlacementFailure = { busy: boolean; payment_cancelled: boolean; permanent: boolean; message: string }

/** A verified, usable-or-not lender result: what the signed fields say. */
export type VerifiedResult = {
  contract: string
  /** x_reference: the payment session it was applied for. */
  session_id: string
  account_id: string
  /** x_amount as the lender wrote it. */
  amount: string
  currency_code: string
  outcome: ApplicationOutcome
  fields: Record<string, string>
}

/** Everything the decision reads; each read is absent when the rules did not need it. */
export type LenderResultFacts = {
  result: VerifiedResult
  /** The registration whose token signed the result. */
  signer: RegistrationFacts
  registrations: RegistrationFacts[]
  /** Why a signed result cannot be used at all, if it cannot (request fields, test flag, unknown result). */
  unusable: OrphanReason | null
  /** The contract's row, read without a lock (a row is written once and never removed). */
  known?: ApprovalRecord
  /** The country of a placed contract's cart, for the shopper's way back. */
  known_country?: string
  /** The session the result names, its cart and order, if Medusa still has it as PayBright's. */
  checkout?: Checkout
  /** The cart the return token leads to, for a result whose session is gone. */
  token_cart?: { cartId?: string; amount?: unknown; countryCode?: string }
  /** Whether the session holds an approval (approved or ordered) a late decline must not overwrite. */
  session_has_approval?: boolean
  /** Whether a completion of the cart is running (it holds the cart's lock). */
  completion_running?: boolean
  /** The live payments of the cart's order, with their contracts. */
  order_payments?: { contract: string }[]
  /** The virtual card retrieved on a first delivery, before the cart's lock. */
  card?: CardRetrieval
  /** This delivery's earlier attempt to place the order, when it failed. */
  failure?: PlacementFailure
  now: number
}

/** What to do with the approval's row once it is recorded (or found), when it is still open. */
export type AfterRecord =
  | { kind: "answer" }
  | { kind: "orphan"; reason: OrphanReason }
  | { kind: "mark_ordered"; order_id: string }
  | { kind: "place" }
  | {
      kind: "unplaced"
      failure: PlacementFailure & { card_pending: boolean; refusal?: OrphanReason }
      grace_minutes: number
    }

export type LenderResultAction =
  /** Nothing to write: the facts answer. */
  | { kind: "answer"; outcome: ApplicationResultOutcome }
  /** A decline or pending result handed to its session (the provider seals nothing for those). */
  | { kind: "record_on_session"; session_id: string; outcome: ApplicationResultOutcome }
  /** An approval: its row recorded (`record`) or the known one taken, then `after` while it is open. */
  | {
      kind: "approval"
      record: RecordApprovalInput | null
      /** Named `after`, never `then`: the workflow engine would take an object with `then` for a promise. */
      after: AfterRecord
      /** Where its order would be: the cart (locked to place or give up on it) and session. */
      cart_id: string | null
      session_id: string
      payment_collection_id: string | null
      country_code?: string
    }

/**
 * Medusa's error types for a cart that cannot become an order as it stands. Not its "Payment
 * authorization failed" (PAYMENT_AUTHORIZATION_ERROR): the completion raises it in place of an error
 * that is not Medusa's own, such as a connection dropped while it writes the payment, and a provider's
 * refusal reaches the completion as NOT_ALLOWED instead.
 */
const PERMANENT = new Set<string>([
  MedusaError.Types.INVALID_DATA,
  MedusaError.Types.NOT_ALLOWED,
  MedusaError.Types.NOT_FOUND,
])

/** The code of the error the placement raises for a cart whose payment Medusa cancelled. */
export const PAYMENT_CANCELLED = "paybright_payment_cancelled"

/**
 * A failed placement told by its error's type (the workflow engine hands errors on as plain
 * objects, so the type and code are read, never the class): CONFLICT means another request holds
 * the cart (answered as processing, not a failure); a cancelled payment is a refusal; Medusa's own
 * refusals of the cart are permanent; anything else may pass.
 */
export function placementFailureOf(error: unknown): PlacementFailure {
  const { type, code, message } = (error ?? {}) as { type?: string; code?: string; message?: string }
  const payment_cancelled = type === MedusaError.Types.NOT_ALLOWED && code === PAYMENT_CANCELLED
  return {
    busy: isBusy(error),
    payment_cancelled,
    permanent: payment_cancelled || PERMANENT.has(type ?? ""),
    message: message ?? "the cart could not be completed",
  }
}

/** Which reads the rules need, given what is read so far (the workflow reads in this order). */
export const needs = {
  known: (facts: Pick<LenderResultFacts, "result" | "unusable">) =>
    !!facts.unusable || facts.result.outcome === "completed",
  knownCountry: (facts: Pick<LenderResultFacts, "result" | "signer" | "known">) =>
    !!facts.known && placedAlready(facts.known, facts.result, facts.signer),
  checkout: (facts: Pick<LenderResultFacts, "result" | "signer" | "known" | "unusable">) =>
    !facts.unusable && !(facts.known && placedAlready(facts.known, facts.result, facts.signer)),
  card: (facts: Pick<LenderResultFacts, "result" | "signer" | "known" | "unusable" | "failure">) =>
    needs.checkout(facts) &&
    facts.result.outcome === "completed" &&
    !facts.known &&
    facts.signer.capture_mode === "virtual_card",
  tokenCart: (facts: LenderResultFacts, token?: { session_id: string } | null) =>
    needs.checkout(facts) &&
    facts.result.outcome === "completed" &&
    !sessionOf(facts) &&
    token?.session_id === facts.result.session_id,
  sessionApproval: (facts: LenderResultFacts) =>
    needs.checkout(facts) &&
    facts.result.outcome !== "completed" &&
    !!sessionOf(facts) &&
    matches(facts.result, facts.checkout!) &&
    facts.checkout!.session.status !== "authorized",
  completionRunning: (facts: LenderResultFacts) =>
    needs.checkout(facts) && facts.result.outcome === "completed" && !!sessionOf(facts) && !!facts.checkout!.orderId,
  orderPayments: (facts: LenderResultFacts) => needs.completionRunning(facts) && facts.completion_running === false,
}

/**
 * The lender result's rules, as a table from facts to one action (see processLenderResultWorkflow
 * for them in words).
 */
export function decide(facts: LenderResultFacts): LenderResultAction {
  const { result, signer, known } = facts
  if (facts.unusable) {
    return approval(
      facts,
      { sessionId: result.session_id, registration: signer, reason: facts.unusable },
      { kind: "answer" }
    )
  }
  if (known && placedAlready(known, result, signer)) {
    return answer({ kind: "placed", orderId: known.order_id!, countryCode: facts.known_country })
  }
  const completed = result.outcome === "completed"
  const checkout = facts.checkout
  const registration = sessionOf(facts)
  if (!checkout || !registration) {
    if (!completed) return answer({ kind: notApproved(result.outcome) })
    const cart = facts.token_cart ?? {}
    const changed =
      cart.amount !== undefined &&
      isAmount(result.amount) &&
      lenderAmount(cart.amount as never) !== normalizeAmount(result.amount)
    const reason: OrphanReason = changed ? "cart_changed" : "session_replaced"
    return approval(
      facts,
      {
        sessionId: result.session_id,
        registration: signer,
        cartId: cart.cartId,
        reason,
        countryCode: cart.countryCode,
      },
      // Recorded earlier while its session lived, and the session is gone since: nothing can place it.
      { kind: "orphan", reason }
    )
  }
  const { session, cartId, countryCode } = checkout
  const same = matches(result, checkout)
  if (!completed) {
    const outcome = { kind: notApproved(result.outcome), countryCode }
    return same && session.status !== "authorized" && facts.session_has_approval === false
      ? { kind: "record_on_session", session_id: session.id, outcome }
      : answer(outcome)
  }
  const reason: OrphanReason | null = !same
    ? "cart_changed"
    : !cartId
      ? "completion_failed"
      : !registration.accepts_transaction_type
        ? "auto_capture_account"
        : null
  const card = registration.capture_mode === "virtual_card" ? facts.card : undefined
  const place = {
    sessionId: session.id,
    registration,
    cartId,
    reason,
    countryCode,
    paymentCollectionId: session.payment_collection_id,
    cardConfirmedAt: card?.retrieved ? card.at : null,
  }
  // An orphan from the start answers from its row; a row that stands open (a repeat) goes on to its order.
  return approval(facts, place, cartId ? toOrder(facts, registration, card) : { kind: "answer" })
}

/** An open approval with its cart: its order's payment, or the placement, or waiting for it. */
function toOrder(facts: LenderResultFacts, registration: RegistrationFacts, card?: CardRetrieval): AfterRecord {
  const { checkout, result } = facts
  // An order read without the cart's lock counts only once no completion holds the cart: one still
  // running may yet fail and Medusa undo the order. An order without a payment was left by a
  // completion cut short (the placement undoes it) or is being placed (the placement waits).
  if (checkout!.orderId && facts.completion_running === false && facts.order_payments?.length) {
    return facts.order_payments.some((payment) => payment.contract === result.contract)
      ? { kind: "mark_ordered", order_id: checkout!.orderId }
      : { kind: "orphan", reason: "second_contract" }
  }
  // Another request holds the cart: the approval stays recorded, and the next delivery places it.
  if (facts.failure?.busy) return { kind: "answer" }
  const session = checkout!.session
  const failure =
    card && !card.retrieved
      ? {
          busy: false,
          payment_cancelled: false,
          permanent: false,
          message: "its virtual card is not available yet",
          card_pending: true,
          refusal: undefined,
        }
      : facts.failure && {
          ...facts.failure,
          // What Medusa's authorizePayment left on the session: no card yet, or the amount changed.
          card_pending: session.status === "requires_more",
          refusal: facts.failure.payment_cancelled
            ? ("payment_cancelled" as const)
            : session.status === "error" && session.data?.paybright_status === "expired"
              ? ("cart_changed" as const)
              : undefined,
        }
  if (!failure) return { kind: "place" }
  return {
    kind: "unplaced",
    failure: { ...failure, permanent: failure.permanent || !!failure.refusal },
    grace_minutes: registration.grace_minutes,
  }
}

/** The step that follows an approval's row, recorded or found. */
export type NextStep =
  | { kind: "answer"; outcome: ApplicationResultOutcome }
  | { kind: "orphan"; approval_id: string; reason: OrphanReason }
  | { kind: "mark_ordered"; approval_id: string; order_id: string }
  | { kind: "place"; approval_id: string; contract: string }
  | { kind: "orphan_unplaced"; approval_id: string; reason: OrphanReason; placement_error: string | null }

/**
 * Once the row is recorded: a row another delivery decided (or one recorded as an orphan) answers;
 * an open one follows the action. An approval that could not be placed waits within the grace
 * period for its card or a passing failure; otherwise it is given up under the cart's lock, kept
 * for a person unless Medusa refused the cart itself.
 */
export function nextStep(action: LenderResultAction, row: ApprovalRecord | undefined, now: number): NextStep {
  if (action.kind !== "approval") return { kind: "answer", outcome: action.outcome }
  const countryCode = action.country_code
  if (!row || row.state !== "approved" || action.after.kind === "answer") {
    return { kind: "answer", outcome: row ? outcomeOfApproval(row, countryCode) : { kind: "processing", countryCode } }
  }
  const then = action.after
  switch (then.kind) {
    case "orphan":
      return { kind: "orphan", approval_id: row.id, reason: then.reason }
    case "mark_ordered":
      return { kind: "mark_ordered", approval_id: row.id, order_id: then.order_id }
    case "place":
      return { kind: "place", approval_id: row.id, contract: row.contract }
    case "unplaced": {
      const { failure } = then
      const waited = now - new Date(row.created_at).getTime()
      if (waited < then.grace_minutes * 60_000 && (failure.card_pending || !failure.permanent)) {
        return { kind: "answer", outcome: { kind: "processing", countryCode } }
      }
      const reason: OrphanReason = failure.card_pending
        ? "card_unavailable"
        : (failure.refusal ?? (failure.permanent ? "completion_failed" : "not_placed"))
      return {
        kind: "orphan_unplaced",
        approval_id: row.id,
        reason,
        placement_error: reason === "not_placed" ? placementErrorOf(failure.message) : null,
      }
    }
  }
}

/**
 * After the placement: the approval's own order once the row says ordered; an order another
 * contract pays makes this one a second contract; an order with no payment yet is still being
 * placed or was undone, and the next delivery (or the sweep) decides.
 */
export function afterPlacement(
  step: Extract<NextStep, { kind: "place" }>,
  placed: { order_id: string; marked: boolean; contracts: string[] | null },
  countryCode?: string
): NextStep {
  if (placed.marked) return { kind: "answer", outcome: { kind: "placed", orderId: placed.order_id, countryCode } }
  if (!placed.contracts?.length) return { kind: "answer", outcome: { kind: "processing", countryCode } }
  return placed.contracts.includes(step.contract)
    ? { kind: "mark_ordered", approval_id: step.approval_id, order_id: placed.order_id }
    : { kind: "orphan", approval_id: step.approval_id, reason: "second_contract" }
}

export function outcomeOfApproval(approval: ApprovalRecord, countryCode?: string): ApplicationResultOutcome {
  if (approval.state === "ordered" && approval.order_id) {
    return { kind: "placed", orderId: approval.order_id, countryCode }
  }
  if (approval.state === "approved") {
    return { kind: "processing", countryCode }
  }
  return { kind: "orphaned", reason: approval.reason ?? "completion_failed", countryCode }
}

/**
 * Whether a contract's row already says it is an order, for this very session and registration: a
 * row is marked ordered only once its order exists, and reopened should that order vanish.
 */
function placedAlready(known: ApprovalRecord, result: VerifiedResult, signer: RegistrationFacts): boolean {
  return (
    known.state === "ordered" &&
    !!known.order_id &&
    known.session_id === result.session_id &&
    known.provider_id === signer.provider_id
  )
}

/** The session's registration, when the result's account is the one the session was made with. */
function sessionOf(
  facts: Pick<LenderResultFacts, "checkout" | "registrations" | "result">
): RegistrationFacts | undefined {
  const registration = facts.checkout
    ? facts.registrations.find((candidate) => candidate.provider_id === facts.checkout!.session.provider_id)
    : undefined
  return registration?.account_id === facts.result.account_id ? registration : undefined
}

function matches(result: VerifiedResult, checkout: Checkout): boolean {
  const amount = isAmount(result.amount) ? normalizeAmount(result.amount) : result.amount
  return (
    amount === lenderAmount(checkout.session.amount as never) &&
    result.currency_code.toUpperCase() === checkout.session.currency_code.toUpperCase()
  )
}

function notApproved(outcome: ApplicationOutcome): "declined" | "pending" {
  return outcome === "pending" ? "pending" : "declined"
}

function answer(outcome: ApplicationResultOutcome): LenderResultAction {
  return { kind: "answer", outcome }
}

/**
 * The approval action: its row written unless the contract's known row stands (a repeat finds it
 * without a write; a usable result replaces an unusable one).
 */
function approval(
  facts: LenderResultFacts,
  place: {
    sessionId: string
    registration: RegistrationFacts
    cartId?: string
    reason: OrphanReason | null
    countryCode?: string
    paymentCollectionId?: string
    cardConfirmedAt?: string | null
  },
  after: AfterRecord
): LenderResultAction {
  const { result, known } = facts
  const stands = known && !supersedes(known, { orphan_reason: place.reason })
  return {
    kind: "approval",
    record: stands
      ? null
      : {
          contract: result.contract,
          session_id: place.sessionId,
          provider_id: place.registration.provider_id,
          cart_id: place.cartId ?? null,
          amount: isAmount(result.amount) ? normalizeAmount(result.amount) : result.amount,
          currency_code: result.currency_code.toUpperCase(),
          lender_result: result.fields,
          orphan_reason: place.reason,
          channel: place.registration.channel,
          card_confirmed_at: place.cardConfirmedAt ?? null,
        },
    after,
    cart_id: place.cartId ?? null,
    session_id: place.sessionId,
    payment_collection_id: place.paymentCollectionId ?? null,
    country_code: place.countryCode,
  }
}
