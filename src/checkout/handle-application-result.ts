import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { isAmount, normalizeAmount } from "../lender/amount"
import { forLog } from "../lender/log-text"
import { applicationOutcome, applicationResultSchema, issuePaths, type ApplicationResult } from "../lender/schemas"
import { verifySignature } from "../lender/signing"
import { acceptsTransactionType, isOrderManagementResult, lenderFieldsOf, requestOnlyFieldsOf } from "./lender-result"
import { PAYBRIGHT_MODULE } from "../modules/paybright"
import type PayBrightModuleService from "../modules/paybright/service"
import { lenderAmount } from "../money/lender-cents"
import type { PayBrightOptions } from "../settings/options"
import { readReturnToken } from "./return-token"
import {
  markApprovalOrderedWorkflow,
  orphanApprovalWorkflow,
  orphanUnplacedApprovalWorkflow,
  recordApprovalWorkflow,
  supersedes,
  updatePayBrightSessionWorkflow,
  type ApprovalRecord,
} from "../workflows/approvals"
import type { OrphanReason } from "../messages/approval-messages"
import { cartOfCollection, findCheckout, livePayments } from "../workflows/approvals/find-checkout"
import { awaitOrder, placeOrder } from "./place-order"
import { providersInForce } from "../settings/provider-registry"

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

type Registration = Awaited<ReturnType<typeof providersInForce>>[number]

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
 * first. The signature is verified before anything is looked up; a verified approval is recorded
 * (PayBrightApproval) before the cart is completed, and ends as an order or as an orphan reported
 * to the merchant. Repeats are harmless: each one tries again what is not settled yet.
 */
export async function handleApplicationResult(
  scope: MedusaContainer,
  input: unknown,
  delivery: Delivery
): Promise<HandledResult> {
  const logger = scope.resolve("logger") as Logger
  const reject = (status: 400 | 401, reason: string, options?: PayBrightOptions): HandledResult => {
    logger.warn(`PayBright: rejected an application result: ${reason}`)
    return { outcome: { kind: "rejected", status, reason }, options }
  }
  const fields = lenderFieldsOf(input)
  if (!fields?.x_signature || !fields.x_reference) {
    return reject(400, "no signed PayBright result")
  }
  const registrations = await providersInForce(scope)
  const registration = registrations.find(
    (candidate) =>
      candidate.options.apiKey === fields.x_account_id && verifySignature(fields, candidate.options.apiToken)
  )
  if (!registration) {
    return reject(401, `the signature does not verify (reference ${forLog(fields.x_reference)})`)
  }
  const options = registration.options
  if (isOrderManagementResult(fields)) {
    // The void's own answer already settled its record; this copy changes nothing.
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
    const approval = await recordApproval(scope, result, fields, {
      sessionId: result.x_reference,
      providerId: registration.providerId,
      reason: unusable,
    })
    return { outcome: settledApproval(approval), options }
  }
  const settled = await settleResult(scope, logger, result, fields, delivery, registration, registrations)
  return { outcome: settled, options }
}

async function settleResult(
  scope: MedusaContainer,
  logger: Logger,
  result: ApplicationResult,
  fields: Record<string, string>,
  delivery: Delivery,
  registration: Registration,
  registrations: Registration[]
): Promise<ApplicationResultOutcome> {
  const outcome = applicationOutcome(result)
  const checkout = await findCheckout(scope, result.x_reference)
  const sessionOptions =
    checkout && registrations.find((candidate) => candidate.providerId === checkout.session.provider_id)?.options
  if (!checkout || sessionOptions?.apiKey !== result.x_account_id) {
    return outcome === "completed"
      ? orphanWithoutSession(scope, result, fields, delivery, registration)
      : { kind: notApproved(outcome) }
  }
  const { session, cartId, countryCode } = checkout
  const paymentCollectionId = session.payment_collection_id
  const amount = isAmount(result.x_amount) ? normalizeAmount(result.x_amount) : result.x_amount
  const matches =
    amount === lenderAmount(session.amount as never) &&
    result.x_currency.toUpperCase() === session.currency_code.toUpperCase()
  if (outcome !== "completed") {
    if (matches && session.status !== "authorized" && !session.data.approval) {
      await updatePayBrightSessionWorkflow(scope).run({
        input: { session_id: session.id, data: { lender_result: fields } },
      })
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
  const approval = await recordApproval(scope, result, fields, {
    sessionId: session.id,
    providerId: session.provider_id,
    cartId,
    reason,
  })
  if (approval.state !== "approved") {
    return settledApproval(approval, countryCode)
  }
  if (checkout.orderId) {
    return concludeWithOrder(scope, approval, { orderId: checkout.orderId, paymentCollectionId, countryCode })
  }
  const placed = await placeOrder(scope, {
    cartId: cartId!,
    sessionId: session.id,
    approvalId: approval.id,
    lenderResult: fields,
    lockTimeoutSeconds: delivery.lockTimeoutSeconds,
  })
  if (placed.placed) {
    const concluded = await concludeWithOrder(scope, approval, {
      orderId: placed.orderId,
      paymentCollectionId,
      countryCode,
    })
    if (concluded.kind === "placed") {
      logger.info(`PayBright: order ${placed.orderId} placed on contract ${approval.contract}`)
    }
    return concluded
  }
  if (placed.conflict) {
    const orderId = delivery.waitForOrderMs
      ? await awaitOrder(scope, { cartId: cartId!, paymentCollectionId }, delivery.waitForOrderMs)
      : undefined
    return orderId
      ? concludeWithOrder(scope, approval, { orderId, paymentCollectionId, countryCode })
      : { kind: "processing", countryCode }
  }
  const current = await currentApproval(scope, approval.id)
  if (current.state !== "approved") {
    // Another delivery settled it meanwhile.
    return settledApproval(current, countryCode)
  }
  const waited = Date.now() - new Date(approval.created_at).getTime()
  const withinGrace = waited < sessionOptions.virtualCardGraceMinutes * 60_000
  if (withinGrace && (placed.cardPending || !placed.permanent)) {
    logger.warn(
      `PayBright: contract ${approval.contract} has no order yet (${placed.cardPending ? "its virtual card is not available yet" : placed.message}); the next delivery tries again`
    )
    return { kind: "processing", countryCode }
  }
  logger.warn(`PayBright: the cart of contract ${approval.contract} could not become an order: ${placed.message}`)
  const { result: settled, errors } = await orphanUnplacedApprovalWorkflow(scope).run({
    input: {
      approval_id: approval.id,
      cart_id: cartId ?? null,
      session_id: session.id,
      reason: placed.cardPending ? "card_unavailable" : "completion_failed",
      lock_timeout: delivery.lockTimeoutSeconds,
    },
    throwOnError: false,
  })
  if (!settled) {
    // Another completion holds the cart, most likely: the next delivery decides.
    logger.warn(
      `PayBright: contract ${approval.contract} is not settled yet: ${errors[0]?.error?.message ?? "no reason"}`
    )
    return { kind: "processing", countryCode }
  }
  return settledApproval(settled as ApprovalRecord, countryCode)
}

/** A genuine approval for a session Medusa no longer has: replaced by a new one, or the cart changed. */
async function orphanWithoutSession(
  scope: MedusaContainer,
  result: ApplicationResult,
  fields: Record<string, string>,
  delivery: Delivery,
  { providerId, options }: Registration
): Promise<ApplicationResultOutcome> {
  const context = readReturnToken(options.apiToken, delivery.returnToken)
  const cart =
    context?.session_id === result.x_reference ? await cartOfCollection(scope, context.payment_collection_id) : {}
  const changed =
    cart.amount !== undefined &&
    isAmount(result.x_amount) &&
    lenderAmount(cart.amount as never) !== normalizeAmount(result.x_amount)
  const reason: OrphanReason = changed ? "cart_changed" : "session_replaced"
  const approval = await recordApproval(scope, result, fields, {
    sessionId: result.x_reference,
    providerId,
    cartId: cart.cartId,
    reason,
  })
  // Recorded earlier while its session lived (its completion failed for a moment), and the session is
  // gone since: nothing can place it any more.
  const settled = approval.state === "approved" ? await orphanApproval(scope, approval, reason) : approval
  return settledApproval(settled, cart.countryCode)
}

/**
 * The cart has an order: this approval is its payment, or a second contract (the order was paid
 * by another contract or another way). An order with no payment yet is still being placed.
 */
async function concludeWithOrder(
  scope: MedusaContainer,
  approval: ApprovalRecord,
  order: { orderId: string; paymentCollectionId: string; countryCode?: string }
): Promise<ApplicationResultOutcome> {
  const payments = await livePayments(scope, { payment_collection_id: order.paymentCollectionId })
  if (payments.length === 0) {
    return { kind: "processing", countryCode: order.countryCode }
  }
  if (payments.some((payment) => payment.contract === approval.contract)) {
    await markApprovalOrderedWorkflow(scope).run({ input: { approval_id: approval.id, order_id: order.orderId } })
    return { kind: "placed", orderId: order.orderId, countryCode: order.countryCode }
  }
  return settledApproval(await orphanApproval(scope, approval, "second_contract"), order.countryCode)
}

async function recordApproval(
  scope: MedusaContainer,
  result: ApplicationResult,
  fields: Record<string, string>,
  place: { sessionId: string; providerId: string; cartId?: string; reason: OrphanReason | null }
): Promise<ApprovalRecord> {
  // A repeat delivery (the second callback, the return) finds its row without taking the session's
  // lock: a contract's row is written once and never removed; the lock orders only first writes.
  const service = scope.resolve(PAYBRIGHT_MODULE) as PayBrightModuleService
  const [known] = (await service.listPayBrightApprovals({ contract: result.x_gateway_reference })) as ApprovalRecord[]
  if (known && !supersedes(known, { orphan_reason: place.reason })) {
    return known
  }
  const { result: recorded } = await recordApprovalWorkflow(scope).run({
    input: {
      contract: result.x_gateway_reference,
      session_id: place.sessionId,
      provider_id: place.providerId,
      cart_id: place.cartId ?? null,
      amount: isAmount(result.x_amount) ? normalizeAmount(result.x_amount) : result.x_amount,
      currency_code: result.x_currency.toUpperCase(),
      lender_result: fields,
      orphan_reason: place.reason,
    },
  })
  return recorded.approval
}

async function currentApproval(scope: MedusaContainer, id: string): Promise<ApprovalRecord> {
  const service = scope.resolve(PAYBRIGHT_MODULE) as PayBrightModuleService
  return (await service.retrievePayBrightApproval(id)) as ApprovalRecord
}

async function orphanApproval(scope: MedusaContainer, approval: ApprovalRecord, reason: OrphanReason) {
  const { result } = await orphanApprovalWorkflow(scope).run({ input: { approval_id: approval.id, reason } })
  return result
}

function settledApproval(approval: ApprovalRecord, countryCode?: string): ApplicationResultOutcome {
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
