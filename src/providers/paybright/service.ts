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
import { LenderClient } from "../../lender/client"
import { LenderError, LenderNetworkError, LenderUnavailableError } from "../../lender/errors"
import { tooPreciseMessage } from "../../messages/merchant-messages"
import { classifyFailure } from "../../records/classify-failure"
import { openAttempt } from "../../records/money-attempt"
import { createCardProcessor } from "../../card-processors"
import { applicantSchema, buildApplicationRedirect, type ApplicantDetails } from "./application-request"
import { lenderFieldsOf, verifyApplicationResult } from "./approval"
import { exactLenderAmount, toLenderAmount } from "./money"
import { moduleRecords, type ModuleRecords } from "./module-records"
import { parseOptions, type PayBrightOptions } from "./options"
import { readPaymentData, sessionDataSchema, type PaymentData, type SessionData } from "./session-data"
import { InStoreSettlement } from "./settlement/in-store"
import type { Settlement } from "./settlement/types"
import { VirtualCardSettlement } from "./settlement/virtual-card"

/**
 * The Medusa payment provider for PayBright. It maps Medusa's calls to the lender's and back;
 * HTTP, signing and card processing live elsewhere.
 */
export default class PayBrightProviderService extends AbstractPaymentProvider<PayBrightOptions> {
  static identifier = "paybright"

  /** Called by Medusa at boot: a wrong option stops the store with a message naming it. */
  static validateOptions(options: Record<string, unknown>): void {
    parseOptions(options)
  }

  protected readonly options: PayBrightOptions
  protected readonly lender: LenderClient
  protected readonly settlement: Settlement
  protected readonly records: ModuleRecords
  protected readonly logger: Pick<Logger, "info" | "warn" | "error">

  constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    const parsed = parseOptions(options)
    super(cradle, parsed)
    this.options = parsed
    this.logger = (cradle.logger as Logger | undefined) ?? console
    this.records = moduleRecords(cradle)
    this.lender = new LenderClient({
      apiUrl: parsed.apiUrl,
      apiKey: parsed.apiKey,
      apiToken: parsed.apiToken,
      timeoutMs: parsed.timeoutMs,
    })
    this.settlement =
      parsed.captureMode === "virtual_card"
        ? new VirtualCardSettlement(this.lender, createCardProcessor(parsed.cardProcessor!))
        : new InStoreSettlement(this.lender, parsed.apiKey)
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const sessionId = String(input.data?.session_id ?? input.context?.idempotency_key ?? "")
    if (!sessionId) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        "PayBright needs the payment session id to open an application"
      )
    }
    const data = this.sessionData(sessionId, input, undefined)
    return { id: sessionId, data, status: PaymentSessionStatus.PENDING }
  }

  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const stored = sessionDataSchema.partial().safeParse(input.data ?? {})
    const sessionId = stored.success ? stored.data.session_id : undefined
    if (!sessionId) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "This payment session was not opened by PayBright")
    }
    // The recorded result is kept as given: authorizePayment re-verifies it against the session.
    return { data: this.sessionData(sessionId, input, stored.success ? stored.data.lender_result : undefined) }
  }

  /**
   * Places the order only on a result the lender signed for this very session: its id comes
   * from Medusa (context.idempotency_key), its amount from the module's records, never from
   * `data`, which the storefront can write to.
   */
  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const sessionId = input.context?.idempotency_key
    const data = sessionDataSchema.partial().safeParse(input.data ?? {})
    const recorded = data.success ? data.data.lender_result : undefined
    if (!sessionId || !recorded) {
      // The application has not finished: the session stays usable for when it does.
      return { status: PaymentSessionStatus.REQUIRES_MORE, data: input.data }
    }
    const { session, verdict } = await this.verifyForSession(recorded, sessionId)
    if (!verdict.verified || verdict.outcome !== "completed") {
      this.logger.warn(`PayBright: payment session ${sessionId} not authorized: ${verdict.reason}`)
      const status =
        verdict.verified && verdict.outcome === "pending"
          ? PaymentSessionStatus.REQUIRES_MORE
          : PaymentSessionStatus.ERROR
      return { status, data: { ...input.data, authorization_error: verdict.reason } }
    }
    const result = verdict.result
    const approved: PaymentData = {
      session_id: sessionId,
      gateway_reference: result.x_gateway_reference,
      amount: toLenderAmount(session.amount),
      currency: session.currency_code.toUpperCase(),
      test: this.options.test,
      capture_mode: this.options.captureMode,
      approved_at: result.x_timestamp,
    }
    try {
      const payment = await this.settlement.confirm(approved)
      return { status: PaymentSessionStatus.AUTHORIZED, data: payment }
    } catch (error) {
      if (!(error instanceof LenderError)) {
        throw error
      }
      const reason = `the approval could not be confirmed with PayBright: ${error.message}`
      this.logger.warn(`PayBright: payment session ${sessionId} not authorized: ${reason}`)
      // A lender outage must not burn the session: the shopper or the callback can try again.
      const status =
        error instanceof LenderNetworkError || error instanceof LenderUnavailableError
          ? PaymentSessionStatus.REQUIRES_MORE
          : PaymentSessionStatus.ERROR
      return { status, data: { ...input.data, authorization_error: reason } }
    }
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
   * The lender's in-store API has no void: an authorization never captured lapses after 30 days
   * (protocol.md §6). Medusa's record is cancelled and the merchant is told what remains to do.
   */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const reference = input.data?.gateway_reference
    if (reference) {
      this.logger.warn(
        `PayBright: payment for contract ${reference} cancelled in Medusa. PayBright's API offers no void for in-store contracts: cancel the contract in the PayBright merchant portal, or it lapses uncaptured after 30 days.`
      )
    }
    return { data: input.data }
  }

  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return { data: input.data }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    return { data: input.data }
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const authorized = typeof input.data?.gateway_reference === "string"
    return { status: authorized ? PaymentSessionStatus.AUTHORIZED : PaymentSessionStatus.PENDING, data: input.data }
  }

  /**
   * Verifies a result of the hosted application (the callback's form body or the return's query)
   * and says what it means for its session. The plugin's own callback and return routes call this
   * through the payment module; see the README for why the lender is not pointed at /hooks/payment.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const fields = lenderFieldsOf(payload.data)
    const sessionId = fields?.x_reference
    const verified = verifyApplicationResult(fields, {
      apiKey: this.options.apiKey,
      apiToken: this.options.apiToken,
      test: this.options.test,
    })
    if (!verified.verified || !sessionId) {
      this.logger.warn(
        `PayBright: rejected an application result${sessionId ? ` for ${sessionId}` : ""}: ${verified.verified ? "no reference" : verified.reason}`
      )
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    const checked = await this.verifyForSession(fields, sessionId).catch(() => undefined)
    if (!checked) {
      this.logger.warn(`PayBright: rejected an application result: no payment session ${sessionId}`)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    const { session, verdict } = checked
    const data = { session_id: sessionId, amount: session.amount as never }
    if (!verdict.verified) {
      this.logger.warn(`PayBright: rejected an application result for ${sessionId}: ${verdict.reason}`)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    if (verdict.outcome === "completed") {
      return { action: PaymentActions.AUTHORIZED, data }
    }
    this.logger.info(`PayBright: application for ${sessionId} not approved: ${verdict.reason}`)
    return { action: verdict.outcome === "pending" ? PaymentActions.PENDING : PaymentActions.FAILED, data }
  }

  /** Checks a result against the session it names, as the payment module recorded it. */
  private async verifyForSession(fields: unknown, sessionId: string) {
    const session = await this.records.sessionAmount(sessionId)
    const verdict = verifyApplicationResult(fields, {
      apiKey: this.options.apiKey,
      apiToken: this.options.apiToken,
      sessionId,
      amount: toLenderAmount(session.amount),
      currency: session.currency_code,
      test: this.options.test,
    })
    return { session, verdict }
  }

  private sessionData(
    sessionId: string,
    input: InitiatePaymentInput,
    lenderResult: SessionData["lender_result"]
  ): SessionData {
    const currency = input.currency_code.toUpperCase()
    if (!this.options.currencies.includes(currency)) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `PayBright finances ${this.options.currencies.join(", ")} only; this cart is in ${currency}`
      )
    }
    const amount = toLenderAmount(input.amount)
    if (amount === "0.00") {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "PayBright cannot finance an amount of zero")
    }
    const redirect = buildApplicationRedirect(this.options, {
      sessionId,
      amount,
      currency,
      applicant: applicantOf(input),
    })
    return {
      session_id: sessionId,
      amount,
      currency,
      test: this.options.test,
      redirect,
      ...(lenderResult ? { lender_result: lenderResult } : {}),
    }
  }

  /**
   * One capture or refund: its record is written with Medusa's id before the lender is called,
   * and settled with the outcome. Anything but done throws the merchant's message, so Medusa
   * keeps no Capture or Refund for it; in doubt, the record says so and blocks the next movement.
   */
  private async moveMoney(
    kind: "capture" | "refund",
    rawData: Record<string, unknown> | undefined,
    medusaId: string
  ): Promise<PaymentData> {
    const payment = readPaymentData(rawData)
    const facts = kind === "capture" ? await this.records.capture(medusaId) : await this.records.refund(medusaId)
    const amount = exactLenderAmount(facts.amount)
    if (!amount) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, tooPreciseMessage(MathBN.convert(facts.amount).toString()))
    }
    const movement = { paymentId: facts.payment_id, medusaId, amount }
    const attempt = await openAttempt({
      kind,
      paymentId: facts.payment_id,
      paymentCollectionId: facts.payment_collection_id,
      medusaId,
      amount,
      currency: payment.currency,
      contract: payment.gateway_reference,
      reference: kind === "capture" ? this.settlement.captureReference(payment, movement) : null,
      via: this.settlement.via,
    })
    if (attempt.alreadyDone) {
      return payment
    }
    let settled: Awaited<ReturnType<Settlement["capture"]>>
    try {
      settled =
        kind === "capture"
          ? await this.settlement.capture(payment, movement)
          : await this.settlement.refund(payment, movement)
    } catch (error) {
      const message = await attempt.settle(classifyFailure(error))
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, message)
    }
    await attempt.settle({ outcome: "done", evidence: settled.evidence })
    return settled.data
  }
}

/** Pre-fill for the application: the logged-in customer, else what the storefront offered. */
function applicantOf(input: InitiatePaymentInput): ApplicantDetails | undefined {
  const customer = input.context?.customer
  const source = customer ?? input.data?.applicant
  const parsed = applicantSchema.safeParse(source)
  return parsed.success ? parsed.data : undefined
}
