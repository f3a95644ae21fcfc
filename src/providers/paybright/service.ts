import {
  AbstractPaymentProvider,
  MathBN,
  MedusaError,
  PaymentActions,
  PaymentSessionStatus,
} from "@medusajs/framework/utils"
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  Logger,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { LenderError } from "../../lenders/errors"
import { tooPreciseMessage } from "../../lib/merchant-messages"
import { MerchantError } from "../../lib/merchant-error"
import { PAYBRIGHT_UNAVAILABLE_TO_SHOPPERS } from "../../lib/settings-messages"
import { SettingsUnreadableError } from "../../lib/unreadable-settings"
import { orderOfMovement, type AttemptInput } from "../../lib/money-attempt"
import { attemptMovement, type MovementCall } from "../../lib/attempt-movement"
import { cancellationBlockedBy, openMovementOf } from "../../lib/in-doubt"
import { appLogger, appScope, pluginRecords, recordsWriter } from "../../lib/plugin-records"
import { PAYBRIGHT_MODULE } from "../../modules/paybright"
import { providerKeyOf } from "../../lib/medusa-internals"
import { cancellationPrepared } from "../../lib/prepared-records"
import { capturedOnContract, carriedPaymentData, carryPlan, replacedByOrderChange } from "../../lib/carried-contract"
import { completionRunning } from "../../lib/cart-completion"
import { effectiveProvider, type ProviderSettings } from "../../lib/effective-settings"
import { clientsOf, type ProviderClients } from "../../lib/provider-clients"
import { channelOf, type PaymentChannel } from "../../lib/payment-channel"
import { moverOfPayment } from "../../lib/mover-of-payment"
import { amountLimitRefusal } from "../../lib/amount-limits"
import { forLog } from "../../lib/texts/log-text"
import { doneVoidOf, voidContract } from "../../lib/void-attempt"
import { applicantSchema, suitsCaptureMode, type ApplicantDetails } from "../../lenders/lender"
import { lender } from "../../lenders"
import { orderManagementCallbackUrl, returnUrls } from "../../lib/backend-routes"
import { lenderAmount, lenderMovement } from "../../lib/lender-cents"
import { cartTotalOf, orderCollectionsOf, paymentInternals, type PaymentInternals } from "./payment-internals"
import { takePaymentLockNow } from "../../lib/expired-lease"
import { testFlagOf } from "../../lib/approval-record"
import { parseOptions, type PayBrightOptions } from "../../lib/options"
import { returnToken } from "../../lib/return-token"
import { leaseProblem } from "../../lib/lock-lease"
import { SessionResults } from "./session-results"
import type { Moved } from "../../lib/settlement-types"
import {
  paymentDataSchema,
  readPaymentData,
  sessionDataSchema,
  type PaymentData,
  type SessionData,
  type SessionStatus,
} from "../../lib/session-data"

/**
 * The Medusa payment provider for PayBright. It maps Medusa's calls to the lender's and back;
 * HTTP, signing and card processing live elsewhere.
 */
export default class PayBrightProviderService extends AbstractPaymentProvider<PayBrightOptions> {
  static identifier = "paybright"

  /**
   * Called by Medusa at boot: a wrong option stops the store with a message naming it, as do
   * options whose longest capture would outlast the payment lock's lease (PAYBRIGHT_LOCK_TTL_SECONDS).
   */
  static validateOptions(options: Record<string, unknown>): void {
    const problem = leaseProblem(parseOptions(options))
    if (problem) {
      throw new Error(`PayBright provider options are invalid: \`${problem.option}\` ${problem.message}`)
    }
  }

  /** The options as written in medusa-config.ts: the defaults under what the admin saves. */
  protected readonly configured: Record<string, unknown>
  protected readonly internals: PaymentInternals
  protected readonly logger: Pick<Logger, "info" | "warn" | "error">
  private readonly cradle: Record<string, unknown>
  private fallback?: Omit<ProviderSettings, "providerId">
  private providerId?: string

  constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    const parsed = parseOptions(options)
    super(cradle, parsed)
    this.configured = options
    this.cradle = cradle
    this.logger = (cradle.logger as Logger | undefined) ?? console
    this.internals = paymentInternals()
  }

  /**
   * The settings, lender client and channel mover in force now: medusa-config.ts's options with what
   * the admin saved on top, re-read when the settings version in the database changes.
   */
  protected async current(): Promise<Omit<ProviderSettings, "providerId"> & ProviderClients> {
    const settings = await this.settings()
    return { ...settings, ...clientsOf(settings) }
  }

  private async settings(): Promise<Omit<ProviderSettings, "providerId">> {
    this.providerId ??= providerKeyOf(this.cradle, this, PayBrightProviderService.identifier)
    const providerId = this.providerId
    if (providerId && appScope().hasRegistration(PAYBRIGHT_MODULE)) {
      return effectiveProvider({ rows: pluginRecords(), providerId, config: this.configured, logger: this.logger })
    }
    this.fallback ??= { options: parseOptions(this.configured), version: 0 }
    return this.fallback
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const sessionId = String(input.data?.session_id ?? input.context?.idempotency_key ?? "")
    if (!sessionId) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        "PayBright needs the payment session id to open an application"
      )
    }
    if (typeof input.data?.carried_contract === "string") {
      // Opened by the plugin's carry after an order change (carryContractWorkflow): no application,
      // the contract is already approved. authorizePayment decides, from Medusa's rows and the
      // plugin's, whether it is carried here; this key alone authorizes nothing.
      return {
        id: sessionId,
        data: { session_id: sessionId, paybright_status: "approved", carried_contract: input.data.carried_contract },
        status: PaymentSessionStatus.PENDING,
      }
    }
    const applicant = applicantOf(input)
    const { options } = await this.current().catch(forShoppers)
    const data = await this.sessionData(options, sessionId, input, { status: "awaiting_application" }, applicant)
    return { id: sessionId, data, status: PaymentSessionStatus.PENDING }
  }

  /**
   * Called by the plugin's callback and return routes only: with `lender_result`, verifies a
   * decline or a pending result against the session and keeps its status; with
   * `paybright_status: "expired"`, withdraws an approval that will never become an order. Anything
   * else keeps what the session held.
   */
  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const stored = sessionDataSchema.partial().safeParse(input.data ?? {})
    const sessionId = stored.success ? stored.data.session_id : undefined
    if (!stored.success || !sessionId) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "This payment session was not opened by PayBright")
    }
    const given = stored.data
    const { options } = await this.current()
    let outcome: { status: SessionStatus; paymentCollectionId?: string }
    if (given.lender_result) {
      outcome = await new SessionResults(options, this.internals).record(sessionId, given.lender_result)
    } else {
      outcome = { status: given.paybright_status ?? "awaiting_application" }
    }
    const status = outcome.status === "expired" ? PaymentSessionStatus.ERROR : PaymentSessionStatus.PENDING
    return { data: await this.sessionData(options, sessionId, input, outcome), status }
  }

  /** What authorizing a session reads besides its approval, started at once. */
  private authorizationReads(sessionId: string) {
    const session = startedEarly(this.internals.sessionAmount(sessionId))
    return {
      settings: startedEarly(this.current()),
      session,
      cartTotal: startedEarly(session.then((found) => cartTotalOf(found.payment_collection_id))),
    }
  }

  /**
   * Places the order only on an approval the plugin verified and recorded for this very session:
   * the session's id comes from Medusa (context.idempotency_key) and the approval from the plugin's
   * own row, never from `data`, which the storefront can write to. The session and the cart itself
   * must still total the approved amount in cents (a storefront can raise a cart's taxes without
   * touching its session): otherwise the cart changed, and the session expires.
   */
  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const sessionId = input.context?.idempotency_key
    const stored = sessionDataSchema.partial().safeParse(input.data ?? {})
    const given = stored.success ? stored.data : {}
    const keep = (status: SessionStatus) => ({
      session_id: given.session_id,
      redirect: given.redirect,
      paybright_status: status,
    })
    // Read together, as they do not depend on one another and the cart's lock is held meanwhile; the
    // settings, the session's amount and its cart's total are awaited (their failures seen) only
    // once an approval is found.
    const reads = sessionId ? this.authorizationReads(sessionId) : undefined
    const { open: approval, closed } = sessionId ? await pluginRecords().approvalOfSession(sessionId) : {}
    // Only a session the carry opened is looked at as one (the key decides nothing by itself):
    // the cart's own sessions, waiting for their application, are not read further.
    if (sessionId && reads && !approval && !closed && typeof input.data?.carried_contract === "string") {
      const carried = await this.carriedAuthorization(sessionId, reads)
      if (carried) return carried
    }
    if (!sessionId || !reads || (!approval && !closed)) {
      // The application has not finished: the session stays usable for when it does.
      return {
        status: PaymentSessionStatus.REQUIRES_MORE,
        data: keep(given.paybright_status ?? "awaiting_application"),
      }
    }
    // Its approval may have been orphaned since it was verified (its cart changed, its time ran
    // out): only an approval the plugin still counts on places an order.
    if (!approval) {
      this.logger.warn(
        `PayBright: payment session ${sessionId} not authorized: its approval (contract ${closed!.contract}) is ${closed!.state}`
      )
      return { status: PaymentSessionStatus.ERROR, data: keep("expired") }
    }
    // Medusa's completion hands the message to the storefront; an unexpected state, so that the
    // plugin's own placement tries again rather than take it for the cart's refusal.
    const current = await reads.settings.catch((error: unknown) =>
      forShoppers(error, MedusaError.Types.UNEXPECTED_STATE)
    )
    const { options } = current
    const session = await reads.session
    const cartTotal = await reads.cartTotal
    const facts = { contract: approval.contract, amount: approval.amount, currency: approval.currency_code }
    const amount = lenderAmount(session.amount)
    const changed =
      facts.amount !== amount ||
      (cartTotal !== undefined && facts.amount !== lenderAmount(cartTotal as never)) ||
      facts.currency !== session.currency_code.toUpperCase()
    if (changed) {
      this.logger.warn(`PayBright: payment session ${sessionId} not authorized: its amount changed after the approval`)
      return { status: PaymentSessionStatus.ERROR, data: keep("expired") }
    }
    const signed = approval.lender_result as Record<string, string> | null
    const approved: PaymentData = {
      session_id: sessionId,
      gateway_reference: facts.contract,
      amount,
      currency: facts.currency,
      // The application's test flag and the channel its money moves through: the ones its approval
      // was verified under (rows from before they were kept: today's settings), and the moment it
      // is captured by itself, for as long as it lives, whatever the settings say later.
      test: testFlagOf({ lender_result: signed }, options.test),
      ...((approval.channel as PaymentChannel | null) ?? channelOf(options)),
      capture_on: options.captureOn,
      approved_at: signed?.x_timestamp,
    }
    const via = moverOfPayment(current, approved)
    if ("unavailable" in via) {
      this.logger.warn(
        `PayBright: payment session ${sessionId} not authorized yet: ${via.unavailable} (contract ${facts.contract})`
      )
      return { status: PaymentSessionStatus.REQUIRES_MORE, data: keep(given.paybright_status ?? "approved") }
    }
    try {
      // A delivery that retrieved the card before taking the cart's lock recorded it on the row.
      if (via.mover.confirm && !approval.card_confirmed_at) await via.mover.confirm(facts.contract)
      return { status: PaymentSessionStatus.AUTHORIZED, data: approved }
    } catch (error) {
      if (!(error instanceof LenderError)) {
        throw error
      }
      // The card may not be issued yet, or the lender is down: the session stays usable, and the
      // plugin's routes decide when waiting has lasted long enough (virtualCardGraceMinutes).
      this.logger.warn(
        `PayBright: the virtual card of contract ${facts.contract} could not be retrieved yet (${error.code}${error.status ? ` ${error.status}` : ""})`
      )
      return { status: PaymentSessionStatus.REQUIRES_MORE, data: keep("card_pending") }
    }
  }

  /**
   * A session in a collection Medusa opened after an order change, authorized when the order's
   * `ordered` approval is to be carried there (carryPlan) and the session is the one the carry
   * opened for it (isCarrySession: its contract, the plan's amount): the new payment takes over
   * the contract's facts. Undefined when the session's collection is not
   * such a collection (a cart's, or an order's the contract is not carried into).
   */
  private async carriedAuthorization(
    sessionId: string,
    reads: ReturnType<PayBrightProviderService["authorizationReads"]>
  ): Promise<AuthorizePaymentOutput | undefined> {
    const session = await reads.session
    const order = await orderCollectionsOf(session.payment_collection_id)
    if (!order) return undefined
    const [approval] = await pluginRecords().listPayBrightApprovals(
      { order_id: order.order_id, state: "ordered" },
      { take: 1 }
    )
    if (!approval) return undefined
    const plan = carryPlan(order, approval)
    if (
      !plan.carry ||
      plan.collection.id !== session.payment_collection_id ||
      plan.session_id !== sessionId ||
      session.currency_code.toUpperCase() !== approval.currency_code.toUpperCase()
    ) {
      return undefined
    }
    const capturedBefore = capturedOnContract(
      order.collections.flatMap((collection) => collection.payments ?? []),
      approval.contract
    )
    return { status: PaymentSessionStatus.AUTHORIZED, data: carriedPaymentData(plan.from.data, capturedBefore) }
  }

  /**
   * Medusa creates the Capture first (and commits it) and passes only its id: the amount is read
   * from that Capture, so the lender (or the card) is charged exactly what Medusa records.
   */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const captureId = input.context?.idempotency_key
    if (!captureId) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "PayBright captures need Medusa's capture id")
    }
    return { data: await this.moveMoney("capture", input.data, captureId) }
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const refundId = input.context?.idempotency_key
    if (!refundId) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "PayBright refunds need Medusa's refund id")
    }
    return { data: await this.moveMoney("refund", input.data, refundId) }
  }

  /**
   * Medusa cancels a payment when its order is cancelled, when an order change (a return, an
   * exchange, a claim, an order edit) replaces its collection with one for what the order still
   * owes, and when it undoes a cart completion that failed after authorizing it.
   *
   * - An order change keeps the contract: the shopper keeps the loan, and the plugin carries it
   *   into the new collection (src/lib/carried-contract.ts).
   * - A completion being undone (still holding the cart's lock, with no cancellation prepared by
   *   the merchant's cancel) is refused, so the contract outlives it.
   * - Otherwise a contract never captured is voided at the lender, so the shopper carries no loan; a
   *   void refused or in doubt throws the merchant's message (Medusa then keeps the payment, and
   *   the record waits in "needs attention" for a retry or a resolution). A virtual-card contract
   *   cannot be voided through the lender's API: its record says to cancel it in the PayBright
   *   portal. A contract already partly captured (on this payment or on the one it was carried
   *   from) cannot be voided (the lender has no partial void): what it still holds uncaptured
   *   lapses after authorizationDays.
   */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const parsed = paymentDataSchema.safeParse(input.data)
    const paymentId = input.context?.idempotency_key
    if (!parsed.success || !paymentId) {
      // Never authorized by PayBright: there is no contract to void.
      return { data: input.data }
    }
    const payment = parsed.data
    const { payment_collection_id, collection_status, captured, canceled } = await this.internals.payment(paymentId)
    const prepared = await cancellationPrepared(pluginRecords(), paymentId)
    if (canceled) {
      // Cancelled before (its collection was replaced): the contract lives on in the payment it was carried into.
      return { data: input.data }
    }
    if (await doneVoidOf(payment.gateway_reference)) {
      // Voided at the lender already (a void retried or resolved, an orphan's): Medusa's cancellation only records it.
      return { data: input.data }
    }
    // A movement under way or in doubt keeps the payment, also when an order change replaces its
    // collection: only a live payment can take the person's "done" for it (Medusa records no
    // capture on a cancelled one). Medusa logs the refusal and leaves the payment authorized.
    const openMovement = await openMovementOf(pluginRecords(), paymentId)
    if (openMovement) throw cancellationBlockedBy(openMovement, payment.gateway_reference)
    if (replacedByOrderChange({ alreadyCanceled: canceled, collectionStatus: collection_status, prepared })) {
      // A capture or refund whose record Medusa has not handed over yet holds the payment's lock:
      // its payment stays, as for one under way, so that its money is booked where it moves.
      const giveBack = await takePaymentLockNow(appScope(), paymentId, `paybright:cancel:${paymentId}`)
      if (!giveBack) {
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `PayBright keeps payment ${paymentId} of contract ${payment.gateway_reference}: a capture or refund of it is under way`
        )
      }
      await giveBack()
      this.logger.info(
        `PayBright: Medusa replaced the payment collection of contract ${payment.gateway_reference} after an order change; the contract is kept and carried into the new collection`
      )
      return { data: input.data }
    }
    if (!prepared && (await completionRunning(appScope(), payment_collection_id))) {
      // Medusa undoes a completion whose later step failed by cancelling the payment it has just
      // authorized; it logs this refusal and goes on undoing. The contract stays, the payment stays
      // authorized on its session, and the store's next completion of the cart takes it up again.
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `PayBright keeps contract ${payment.gateway_reference}: its cart's completion is being undone, and the store completes it again`
      )
    }
    if (MathBN.gt(captured, 0) || (await this.capturedOnContractElsewhere(payment_collection_id, paymentId, payment))) {
      this.logger.warn(
        `PayBright: payment for contract ${payment.gateway_reference} cancelled in Medusa after a partial capture; PayBright cannot void part of a contract, so what it holds uncaptured lapses after the authorization period.`
      )
      return { data: input.data }
    }
    const current = await this.current()
    const routed = moverOfPayment(current, payment)
    // A channel the store no longer has is recorded refused with why: Medusa swallows the error of
    // a cancellation, so the record is what the merchant sees.
    const voided = await voidContract({
      mover: "unavailable" in routed ? routed : routed.mover,
      contract: payment,
      paymentId,
      paymentCollectionId: payment_collection_id,
      trigger: "admin",
      callbackUrl: orderManagementCallbackUrl("options" in routed ? routed.options : current.options),
    })
    // Where the lender's API cannot void (a virtual card), Medusa's payment is cancelled all the same
    // (nothing is charged on the card) and the refused record tells the merchant what to do.
    if (voided.outcome !== "done" && ("unavailable" in routed || !routed.mover.cannotVoid)) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, voided.message)
    }
    return { data: input.data }
  }

  /**
   * Whether the order's other payments on this contract captured part of it (a contract carried
   * after an order change), read off Medusa's rows now: a capture booked after the carry is not in
   * the carried payment's `captured_before`.
   */
  private async capturedOnContractElsewhere(
    paymentCollectionId: string,
    paymentId: string,
    payment: PaymentData
  ): Promise<boolean> {
    const order = await orderCollectionsOf(paymentCollectionId)
    if (!order) return false
    const others = order.collections
      .flatMap((collection) => collection.payments ?? [])
      .filter((other) => other.id !== paymentId)
    return MathBN.gt(capturedOnContract(others, payment.gateway_reference), 0)
  }

  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return { data: input.data }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    return { data: input.data }
  }

  /** Authorized only on an approval the plugin recorded for the session, never on a key the storefront set. */
  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const sessionId = typeof input.data?.session_id === "string" ? input.data.session_id : undefined
    const authorized = !!(sessionId && (await pluginRecords().approvalOfSession(sessionId)).open)
    return { status: authorized ? PaymentSessionStatus.AUTHORIZED : PaymentSessionStatus.PENDING, data: input.data }
  }

  /**
   * Verifies a result of the hosted application and says what it means for its session, for a
   * store that calls the payment module's webhook processing with one. The plugin's own callback
   * and return routes do not come here: they run handleApplicationResult, which verifies with the
   * same authenticator (see docs/checkout.md for why the lender is not pointed at /hooks/payment).
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    // The signature first: nothing from the request is looked up before it verifies.
    const { options } = await this.current()
    const signed = lender.verifyResult(payload.data, {
      apiKey: options.apiKey,
      apiToken: options.apiToken,
      test: options.test,
    })
    const sessionId = signed.verified ? signed.result.reference : undefined
    if (!signed.verified || !sessionId) {
      this.logger.warn(
        `PayBright: rejected an application result: ${signed.verified ? "no reference" : forLog(signed.reason, 200)}`
      )
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    const checked = await new SessionResults(options, this.internals)
      .verifyForSession(payload.data, sessionId)
      .catch(() => undefined)
    if (!checked?.verdict.verified) {
      this.logger.warn(
        `PayBright: rejected an application result for ${forLog(sessionId)}: not for a session it matches`
      )
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    const { session, verdict } = checked
    const data = { session_id: sessionId, amount: session.amount as never }
    if (verdict.outcome === "completed") {
      return suitsCaptureMode(verdict.result, options.captureMode)
        ? { action: PaymentActions.AUTHORIZED, data }
        : { action: PaymentActions.NOT_SUPPORTED }
    }
    return { action: verdict.outcome === "pending" ? PaymentActions.PENDING : PaymentActions.FAILED, data }
  }

  private async sessionData(
    options: PayBrightOptions,
    sessionId: string,
    input: InitiatePaymentInput,
    outcome: { status: SessionStatus; paymentCollectionId?: string },
    applicant?: ApplicantDetails
  ): Promise<SessionData> {
    const currency = input.currency_code.toUpperCase()
    if (!options.currencies.includes(currency)) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `PayBright finances ${options.currencies.join(", ")} only; this cart is in ${currency}`
      )
    }
    const amount = lenderAmount(input.amount)
    if (amount === "0.00") {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "PayBright cannot finance an amount of zero")
    }
    // A verified result has read the session already; otherwise it is read here, once.
    const paymentCollectionId =
      outcome.paymentCollectionId ?? (await this.internals.sessionAmount(sessionId)).payment_collection_id
    // The limits decide whether an application is offered; a session that only ends (an approval
    // withdrawn from it, expired) is not one, and must still be written whatever the limits say now.
    const refusal = outcome.status === "expired" ? undefined : amountLimitRefusal(options, amount, currency)
    if (refusal) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, refusal)
    }
    const redirect = lender.applicationRedirect(options, {
      reference: sessionId,
      amount,
      currency,
      applicant,
      urls: returnUrls(options, returnToken(options.apiToken, sessionId, paymentCollectionId)),
    })
    return {
      session_id: sessionId,
      redirect,
      paybright_status: outcome.status,
    }
  }

  /**
   * One capture or refund, through the money funnel (src/lib/attempt-movement.ts) with the amount
   * Medusa's row holds in the lender's cents. Anything but done throws the merchant's message, so
   * Medusa keeps no Capture or Refund for it; in doubt, the record says so and blocks the next movement.
   */
  private async moveMoney(
    kind: "capture" | "refund",
    rawData: Record<string, unknown> | undefined,
    medusaId: string
  ): Promise<PaymentData> {
    const payment = readPaymentData(rawData)
    const [current, facts] = await Promise.all([
      this.current(),
      kind === "capture" ? this.internals.capture(medusaId) : this.internals.refund(medusaId),
    ])
    const routed = moverOfPayment(current, payment)
    const asked = lenderMovement(facts)
    if (!asked.expressible) {
      throw new MerchantError(MedusaError.Types.INVALID_DATA, tooPreciseMessage(kind, asked.amount))
    }
    const amount = asked.amount
    const movement = { paymentId: facts.payment_id, medusaId, amount }
    const mover = "mover" in routed ? routed.mover : undefined
    const attempt: AttemptInput = {
      kind,
      paymentId: facts.payment_id,
      order: await orderOfMovement(facts.payment_collection_id),
      medusaId,
      amount,
      medusaAmount: MathBN.convert(facts.amount).toString(),
      resolves: facts.resolves,
      currency: payment.currency,
      contract: payment.gateway_reference,
      reference: kind === "capture" && mover ? mover.captureReference(payment, movement) : null,
      via: mover?.via ?? "PayBright",
      medusaRows: facts.medusa_rows,
    }
    const call: MovementCall<Moved> = mover
      ? () => (kind === "capture" ? mover.capture(payment, movement) : mover.refund(payment, movement))
      : { cannot: (routed as { unavailable: string }).unavailable }
    const moved = await attemptMovement({ records: recordsWriter(), logger: appLogger() }, attempt, call)
    if (moved.outcome !== "done") {
      throw new MerchantError(MedusaError.Types.NOT_ALLOWED, moved.message)
    }
    // Without a call (a person recorded it made already, nothing left to move), the data stays.
    return moved.made?.data ?? payment
  }
}

/**
 * What a shopper's storefront is told when this process cannot use the saved settings: that
 * PayBright is not available, never which setting or variable is wrong (the log and the admin say).
 */
function forShoppers(error: unknown, type: string = MedusaError.Types.NOT_ALLOWED): never {
  if (error instanceof SettingsUnreadableError) {
    throw new MedusaError(type, PAYBRIGHT_UNAVAILABLE_TO_SHOPPERS)
  }
  throw error
}

/** A read started before it is needed: its failure surfaces where it is awaited, never unhandled. */
function startedEarly<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined)
  return promise
}

/** Pre-fill for the application: the logged-in customer, else what the storefront offered. */
function applicantOf(input: InitiatePaymentInput): ApplicantDetails | undefined {
  const customer = input.context?.customer
  const source = customer ?? input.data?.applicant
  const parsed = applicantSchema.safeParse(source)
  return parsed.success ? parsed.data : undefined
}
