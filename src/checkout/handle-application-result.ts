import type { MedusaContainer } from "@medusajs/framework/types"
import { isAmount, normalizeAmount } from "../lender/amount"
import { forLog } from "../lender/log-text"
import { applicationOutcome, applicationResultSchema, issuePaths, type ApplicationResult } from "../lender/schemas"
import { placementErrorOf } from "../messages/approval-messages"
import { supersedes, type OrphanReason } from "../modules/paybright/approval-reasons"
import { lenderAmount } from "../money/lender-cents"
import type { PayBrightOptions } from "../settings/options"
import type { ApprovalRecord, RecordApprovalInput } from "../approvals/approval-record"
import { checkoutCollaborators, type CheckoutCollaborators, type Registration } from "./checkout-collaborators"
import {
  acceptsTransactionType,
  authenticateLenderResult,
  isOrderManagementResult,
  requestOnlyFieldsOf,
} from "./lender-result"
import { readReturnToken } from "./return-token"
import { channelOf } from "../settlement/payment-channel"
import type { PlaceOrderResult } from "./place-order"

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

export type HandledResult = { outcome: ApplicationResultOutcome; options?: PayBrightOptions }

export type Delivery = {
  /** The `ctx` token of the URL the lender called: which checkout the result belongs to. */
  returnToken?: unknown
  /** Seconds to wait for a completion another request is running. */
  lockTimeoutSeconds: number
  /** After a "processing" outcome, milliseconds to wait for that order (the shopper's return). */
  waitForOrderMs?: number
}

/**
 * The one path for a hosted-application result, whichever of the callback and the return arrives
 * first, with Medusa's container as its collaborators (see decideApplicationResult). `now`: the
 * clock the grace period is measured by (the sweep's, which a test may set ahead).
 */
export async function handleApplicationResult(
  scope: MedusaContainer,
  input: unknown,
  delivery: Delivery,
  now?: () => number
): Promise<HandledResult> {
  return decideApplicationResult(checkoutCollaborators(scope, now), input, delivery)
}

/**
 * What a lender result comes to. A result passes two checkpoints, each for its own reason:
 * - here, for the routes src/api/paybright/{callback,return} through handleApplicationResult (and
 *   the unplaced-approvals sweep, which delivers a recorded result again): the signature is
 *   verified before anything is looked up (authenticateLenderResult), the result checked against
 *   the session as Medusa recorded it (amount, currency, reference), and a verified approval is
 *   recorded (PayBrightApproval) before the cart is completed, in the same workflow under the
 *   cart's lock (placeApprovalWorkflow), so it ends as an order or as an orphan reported to the
 *   merchant;
 * - in the provider's `authorizePayment`, called by Medusa's cart completion with nothing but the
 *   session's data, which the storefront can write: it reads the approval from the plugin's row for
 *   the session Medusa names, so only an approval the plugin verified authorizes a payment.
 * Repeats are harmless: each one tries again what is not decided yet.
 */
export async function decideApplicationResult(
  collaborators: CheckoutCollaborators,
  input: unknown,
  delivery: Delivery
): Promise<HandledResult> {
  const { logger } = collaborators
  const reject = (status: 400 | 401, reason: string, options?: PayBrightOptions): HandledResult => {
    logger.warn(`PayBright: rejected an application result: ${reason}`)
    return { outcome: { kind: "rejected", status, reason }, options }
  }
  const registrations = await collaborators.providersInForce()
  const authenticated = authenticateLenderResult(input, registrations)
  if (!authenticated.authentic) {
    return authenticated.status === 400
      ? reject(400, "no signed PayBright result")
      : reject(401, `the signature does not verify (reference ${forLog(lenderReferenceOf(input))})`)
  }
  const { fields, signer: registration } = authenticated
  if (!authenticated.ownAccount) {
    return reject(401, `the signature does not verify (reference ${forLog(fields.x_reference)})`)
  }
  const options = registration.options
  if (isOrderManagementResult(fields)) {
    // The void's own answer already concluded its record; this copy changes nothing.
    logger.info(
      `PayBright: the lender posted the ${forLog(fields.x_transaction_type)} result of contract ${forLog(fields.x_gateway_reference ?? "?")} (${forLog(fields.x_result ?? "?")})`
    )
    return { outcome: { kind: "acknowledged" }, options }
  }
  const parsed = applicationResultSchema.safeParse(fields)
  if (!parsed.success) {
    return reject(400, `signed fields are incomplete (${issuePaths(parsed.error).join(", ")})`, options)
  }
  const result = parsed.data
  const unusable = unusableReason(result, fields, options)
  if (unusable) {
    // Signed by the lender, so a contract may stand behind it: recorded for the merchant, never an order.
    logger.error(
      `PayBright: a signed result for contract ${forLog(result.x_gateway_reference)} cannot be used (${unusable}); it is recorded for the merchant`
    )
    const approval = await recordApproval(collaborators, result, fields, {
      sessionId: result.x_reference,
      providerId: registration.providerId,
      options,
      reason: unusable,
    })
    return { outcome: outcomeOfApproval(approval), options }
  }
  const decided = await decideResult(collaborators, result, fields, delivery, registration, registrations)
  return { outcome: decided, options }
}

/** The reference a rejected input claims, for the log only. */
function lenderReferenceOf(input: unknown): string {
  const reference = (input as { x_reference?: unknown } | null)?.x_reference
  return typeof reference === "string" ? reference : "?"
}

async function decideResult(
  collaborators: CheckoutCollaborators,
  result: ApplicationResult,
  fields: Record<string, string>,
  delivery: Delivery,
  registration: Registration,
  registrations: Registration[]
): Promise<ApplicationResultOutcome> {
  const { logger } = collaborators
  const outcome = applicationOutcome(result)
  const known = outcome === "completed" ? await collaborators.approvalOfContract(result.x_gateway_reference) : undefined
  if (known && placedAlready(known, result, registration)) {
    // A repeat (the lender's next copy, the shopper's return) of an approval that is an order: the row answers.
    const countryCode = known.cart_id ? await collaborators.countryOfCart(known.cart_id) : undefined
    return { kind: "placed", orderId: known.order_id!, countryCode }
  }
  // A first delivery of a virtual-card approval retrieves its card (which proves it) while the
  // checkout is looked up, outside the cart's lock: the row records it, and the cart's completion
  // has nothing to fetch. A repeat finds the row, and the completion retrieves the card.
  const cardRetrieval =
    outcome === "completed" && !known ? collaborators.confirmCard(registration, result.x_gateway_reference) : undefined
  const checkout = await collaborators.findCheckout(result.x_reference)
  const sessionOptions =
    checkout && registrations.find((candidate) => candidate.providerId === checkout.session.provider_id)?.options
  if (!checkout || sessionOptions?.apiKey !== result.x_account_id) {
    return outcome === "completed"
      ? orphanWithoutSession(collaborators, result, fields, delivery, registration)
      : { kind: notApproved(outcome) }
  }
  const { session, cartId, countryCode } = checkout
  const paymentCollectionId = session.payment_collection_id
  const amount = isAmount(result.x_amount) ? normalizeAmount(result.x_amount) : result.x_amount
  const matches =
    amount === lenderAmount(session.amount as never) &&
    result.x_currency.toUpperCase() === session.currency_code.toUpperCase()
  if (outcome !== "completed") {
    if (matches && session.status !== "authorized" && !(await collaborators.sessionHasApproval(session.id))) {
      await collaborators.recordResultOnSession(session.id, fields)
    }
    return { kind: notApproved(outcome), countryCode }
  }
  const reason: OrphanReason | null = !matches
    ? "cart_changed"
    : !cartId
      ? "completion_failed"
      : !acceptsTransactionType(result, sessionOptions.captureMode)
        ? "auto_capture_account"
        : null
  const place: ApprovalPlace = {
    sessionId: session.id,
    providerId: session.provider_id,
    options: sessionOptions,
    cartId,
    reason,
  }
  // An approval that cannot become an order is recorded as an orphan; one whose row another
  // delivery wrote is placed if that row still counts on an order.
  let approval: ApprovalRecord | undefined
  if (reason || (known && known.state !== "approved" && !supersedes(known, { orphan_reason: null }))) {
    approval = await recordApproval(collaborators, result, fields, place, { known })
    if (approval.state !== "approved" || !cartId) return outcomeOfApproval(approval, countryCode)
  }
  // Another request placing the cart's order: waited for, on a delivery that may wait.
  const orderPlacedElsewhere = async (approval: ApprovalRecord): Promise<ApplicationResultOutcome> => {
    const orderId = delivery.waitForOrderMs
      ? await collaborators.awaitOrder({ cartId: cartId!, paymentCollectionId }, delivery.waitForOrderMs)
      : undefined
    return orderId
      ? concludeWithOrder(collaborators, approval, { orderId, paymentCollectionId, countryCode })
      : { kind: "processing", countryCode }
  }
  // An order read without the cart's lock is taken as placed only once no completion holds the
  // cart: one still running may yet fail and Medusa undo the order it made, which the shopper would
  // then land on. While one runs, placeOrder waits for the cart and finds the order it left.
  if (checkout.orderId && !(await collaborators.completionRunning(paymentCollectionId))) {
    approval ??= await recordApproval(collaborators, result, fields, place, { known })
    if (approval.state !== "approved") return outcomeOfApproval(approval, countryCode)
    const concluded = await concludeWithOrder(collaborators, approval, {
      orderId: checkout.orderId,
      paymentCollectionId,
      countryCode,
    })
    // An order with no payment: a completion cut short by its process's death left it (placeOrder
    // undoes it), or one began since the look above (placeOrder waits for it).
    if (concluded.kind !== "processing") return concluded
  }
  const card = sessionOptions.captureMode === "virtual_card" ? await cardRetrieval : undefined
  const confirmedPlace = { ...place, cardConfirmedAt: card?.retrieved ? card.at : null }
  // Without its card the cart is not completed (the cart's lock never waits for the lender): the
  // approval is recorded below and waits for its card, as when the completion finds none.
  const placed: PlaceOrderResult =
    card && !card.retrieved
      ? CARD_NOT_RETRIEVED
      : await collaborators.placeOrder({
          cartId: cartId!,
          paymentCollectionId,
          approval: approvalToRecord(result, fields, confirmedPlace),
          lockTimeoutSeconds: delivery.lockTimeoutSeconds,
        })
  if (placed.placed && placed.marked) {
    logger.info(`PayBright: order ${placed.orderId} placed on contract ${result.x_gateway_reference}`)
    return { kind: "placed", orderId: placed.orderId, countryCode }
  }
  // Not placed by this approval's own completion: its row as it stands now (recorded here when
  // another completion held the cart, so the lock step came before the record).
  approval =
    placed.placed && placed.approval
      ? placed.approval
      : await recordApproval(collaborators, result, fields, confirmedPlace)
  if (placed.placed) {
    // The cart's order, answered by a completion that ran earlier: this approval's, or a second contract.
    return concludeWithOrder(collaborators, approval, { orderId: placed.orderId, paymentCollectionId, countryCode })
  }
  if (approval.state !== "approved") {
    // Another delivery decided it meanwhile.
    return outcomeOfApproval(approval, countryCode)
  }
  if (placed.conflict) {
    return orderPlacedElsewhere(approval)
  }
  const waited = collaborators.now() - new Date(approval.created_at).getTime()
  const withinGrace = waited < sessionOptions.virtualCardGraceMinutes * 60_000
  if (withinGrace && (placed.cardPending || !placed.permanent)) {
    logger.warn(
      `PayBright: contract ${approval.contract} has no order yet (${placed.cardPending ? "its virtual card is not available yet" : placed.message}); the next delivery tries again`
    )
    return { kind: "processing", countryCode }
  }
  logger.warn(`PayBright: the cart of contract ${approval.contract} could not become an order: ${placed.message}`)
  // Only Medusa refusing the cart itself is a refusal; a failure of the store's own (a crash, a
  // lock, a dropped connection) that outlasted the grace period is left to a person, never voided.
  const giveUp: OrphanReason = placed.cardPending
    ? "card_unavailable"
    : (placed.refusal ?? (placed.permanent ? "completion_failed" : "not_placed"))
  const decided = await collaborators.orphanUnplacedApproval({
    approval_id: approval.id,
    cart_id: cartId ?? null,
    session_id: session.id,
    reason: giveUp,
    placement_error: giveUp === "not_placed" ? placementErrorOf(placed.message) : null,
    lock_timeout: delivery.lockTimeoutSeconds,
  })
  if ("notDecided" in decided) {
    // Another completion holds the cart, most likely: the next delivery decides.
    logger.warn(`PayBright: contract ${approval.contract} is not decided yet: ${decided.notDecided}`)
    return { kind: "processing", countryCode }
  }
  return outcomeOfApproval(decided.approval, countryCode)
}

/** A genuine approval for a session Medusa no longer has: replaced by a new one, or the cart changed. */
async function orphanWithoutSession(
  collaborators: CheckoutCollaborators,
  result: ApplicationResult,
  fields: Record<string, string>,
  delivery: Delivery,
  { providerId, options }: Registration
): Promise<ApplicationResultOutcome> {
  const context = readReturnToken(options.apiToken, delivery.returnToken)
  const cart =
    context?.session_id === result.x_reference
      ? await collaborators.cartOfCollection(context.payment_collection_id)
      : {}
  const changed =
    cart.amount !== undefined &&
    isAmount(result.x_amount) &&
    lenderAmount(cart.amount as never) !== normalizeAmount(result.x_amount)
  const reason: OrphanReason = changed ? "cart_changed" : "session_replaced"
  const approval = await recordApproval(collaborators, result, fields, {
    sessionId: result.x_reference,
    providerId,
    options,
    cartId: cart.cartId,
    reason,
  })
  // Recorded earlier while its session lived (its completion failed for a moment), and the session is
  // gone since: nothing can place it any more.
  const decided = approval.state === "approved" ? await collaborators.orphanApproval(approval.id, reason) : approval
  return outcomeOfApproval(decided, cart.countryCode)
}

/**
 * The cart has an order: this approval is its payment, or a second contract (the order was paid
 * by another contract or another way). An order with no payment yet is still being placed, or was
 * undone (it no longer exists): the next delivery, or the sweep once the grace is over, decides.
 */
async function concludeWithOrder(
  collaborators: CheckoutCollaborators,
  approval: ApprovalRecord,
  order: { orderId: string; paymentCollectionId: string; countryCode?: string }
): Promise<ApplicationResultOutcome> {
  const payments = await collaborators.orderPayments({
    orderId: order.orderId,
    paymentCollectionId: order.paymentCollectionId,
  })
  if (payments.length === 0) {
    return { kind: "processing", countryCode: order.countryCode }
  }
  if (payments.some((payment) => payment.contract === approval.contract)) {
    await collaborators.markApprovalOrdered(approval.id, order.orderId)
    return { kind: "placed", orderId: order.orderId, countryCode: order.countryCode }
  }
  return outcomeOfApproval(await collaborators.orphanApproval(approval.id, "second_contract"), order.countryCode)
}

/** The placement of an approval whose virtual card could not be retrieved before the cart's lock. */
const CARD_NOT_RETRIEVED = {
  placed: false,
  conflict: false,
  cardPending: true,
  permanent: false,
  message: "its virtual card is not available yet",
} as const

/** Where a verified approval belongs: its session and registration, its cart, and why it is an orphan from the start, if it is. */
type ApprovalPlace = {
  sessionId: string
  providerId: string
  /** The registration's options it was verified with: its channel is recorded with it. */
  options: PayBrightOptions
  cartId?: string
  reason: OrphanReason | null
  /** When the delivery retrieved its virtual card (ISO time), if it did. */
  cardConfirmedAt?: string | null
}

async function recordApproval(
  collaborators: CheckoutCollaborators,
  result: ApplicationResult,
  fields: Record<string, string>,
  place: ApprovalPlace,
  lookedUp?: { known?: ApprovalRecord }
): Promise<ApprovalRecord> {
  // A repeat delivery (the second callback, the return) finds its row without taking the session's
  // lock: a contract's row is written once and never removed; the lock orders only first writes.
  const known = lookedUp ? lookedUp.known : await collaborators.approvalOfContract(result.x_gateway_reference)
  if (known && !supersedes(known, { orphan_reason: place.reason })) {
    return known
  }
  return collaborators.recordApproval(approvalToRecord(result, fields, place))
}

/** The row a verified approval is recorded as. */
function approvalToRecord(
  result: ApplicationResult,
  fields: Record<string, string>,
  place: ApprovalPlace
): RecordApprovalInput {
  return {
    contract: result.x_gateway_reference,
    session_id: place.sessionId,
    provider_id: place.providerId,
    cart_id: place.cartId ?? null,
    amount: isAmount(result.x_amount) ? normalizeAmount(result.x_amount) : result.x_amount,
    currency_code: result.x_currency.toUpperCase(),
    lender_result: fields,
    orphan_reason: place.reason,
    channel: channelOf(place.options),
    card_confirmed_at: place.cardConfirmedAt ?? null,
  }
}

/**
 * Whether a contract's row already says it is an order, for this very session and registration: a
 * row is marked ordered only once its order exists, and reopened should that order vanish.
 */
function placedAlready(known: ApprovalRecord, result: ApplicationResult, registration: Registration): boolean {
  return (
    known.state === "ordered" &&
    !!known.order_id &&
    known.session_id === result.x_reference &&
    known.provider_id === registration.providerId
  )
}

function outcomeOfApproval(approval: ApprovalRecord, countryCode?: string): ApplicationResultOutcome {
  if (approval.state === "ordered" && approval.order_id) {
    return { kind: "placed", orderId: approval.order_id, countryCode }
  }
  if (approval.state === "approved") {
    return { kind: "processing", countryCode }
  }
  return { kind: "orphaned", reason: approval.reason ?? "completion_failed", countryCode }
}

/**
 * Why a signed result cannot be used, if it cannot: it carries fields only a request has (a signed
 * request replayed, or a lender answering oddly), its test flag is not the store's, or its result
 * is not one PayBright documents.
 */
function unusableReason(
  result: ApplicationResult,
  fields: Record<string, string>,
  options: PayBrightOptions
): OrphanReason | undefined {
  if (requestOnlyFieldsOf(fields).length > 0) return "request_fields"
  if (result.x_test.toLowerCase() !== String(options.test)) return "test_mismatch"
  if (applicationOutcome(result) === "unknown") return "unknown_result"
  return undefined
}

function notApproved(outcome: ReturnType<typeof applicationOutcome>): "declined" | "pending" {
  return outcome === "pending" ? "pending" : "declined"
}
