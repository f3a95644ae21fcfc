import { MedusaError } from "@medusajs/framework/utils"
import { acceptsTransactionType, verifyApplicationResult, type ApprovalFacts } from "../../checkout/lender-result"
import { lenderAmount } from "../../money/lender-cents"
import type { PaymentInternals } from "./payment-internals"
import type { PayBrightOptions } from "../../settings/options"
import { seal, unseal } from "../../checkout/sealed"
import type { SessionStatus } from "../../settlement/session-data"

/**
 * Turns a lender result into what a payment session may hold, and reads it back: the result is
 * verified against the session as the payment module recorded it (never against `data`), and an
 * approval is kept sealed, so only the plugin can have written it.
 */
export class SessionApprovals {
  constructor(
    private readonly options: PayBrightOptions,
    private readonly internals: PaymentInternals
  ) {}

  /** Checks a result against the session it names: signature, account, reference, amount, currency, test flag. */
  async verifyForSession(fields: unknown, sessionId: string) {
    const session = await this.internals.sessionAmount(sessionId)
    const verdict = verifyApplicationResult(fields, {
      apiKey: this.options.apiKey,
      apiToken: this.options.apiToken,
      sessionId,
      amount: lenderAmount(session.amount),
      currency: session.currency_code,
      test: this.options.test,
    })
    return { session, verdict }
  }

  /**
   * What a verified result makes of the session: its status code and, for an approval, the sealed
   * facts; with the session as the payment module recorded it, so the caller need not read it again.
   */
  async record(
    sessionId: string,
    fields: unknown
  ): Promise<{ status: SessionStatus; approval?: string; paymentCollectionId: string }> {
    const { session, verdict } = await this.verifyForSession(fields, sessionId)
    const paymentCollectionId = session.payment_collection_id
    if (!verdict.verified) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "This PayBright result does not verify for this session")
    }
    if (verdict.outcome !== "completed") {
      return { status: verdict.outcome === "pending" ? "pending" : "declined", paymentCollectionId }
    }
    if (!acceptsTransactionType(verdict.result, this.options.captureMode)) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "This PayBright account's transaction type is not accepted")
    }
    const facts: ApprovalFacts = {
      session_id: sessionId,
      contract: verdict.result.x_gateway_reference,
      amount: lenderAmount(session.amount),
      currency: session.currency_code.toUpperCase(),
      test: this.options.test,
      transaction_type: verdict.result.x_transaction_type ?? null,
      approved_at: verdict.result.x_timestamp,
      verified_at: new Date().toISOString(),
    }
    return {
      status: "approved",
      approval: seal(this.options.apiToken, "approval", sessionId, facts),
      paymentCollectionId,
    }
  }

  /** The approval sealed in a session's data, if the plugin sealed it for this very session. */
  open(sealed: unknown, sessionId: string | undefined): ApprovalFacts | undefined {
    if (!sessionId) {
      return undefined
    }
    const facts = unseal<ApprovalFacts>(this.options.apiToken, "approval", sessionId, sealed)
    return facts?.session_id === sessionId ? facts : undefined
  }
}
