import { MedusaError } from "@medusajs/framework/utils"
import { suitsCaptureMode } from "../../lenders/lender"
import { lender } from "../../lenders"
import { lenderAmount } from "../../lib/lender-cents"
import type { PaymentInternals } from "./payment-internals"
import type { PayBrightOptions } from "../../lib/options"
import type { SessionStatus } from "../../lib/session-data"

/**
 * A lender result read against the payment session it names, as the payment module recorded the
 * session (never against `data`). The session keeps only the status code; an approval lives in the
 * plugin's own row (`paybright_approval`), which authorizePayment reads.
 */
export class SessionResults {
  constructor(
    private readonly options: PayBrightOptions,
    private readonly internals: PaymentInternals
  ) {}

  /** Checks a result against the session it names: signature, account, reference, amount, currency, test flag. */
  async verifyForSession(fields: unknown, sessionId: string) {
    const session = await this.internals.sessionAmount(sessionId)
    const verdict = lender.verifyResult(fields, {
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
   * The status a verified result gives its session, with the session's payment collection as the
   * payment module recorded it, so the caller need not read it again.
   */
  async record(sessionId: string, fields: unknown): Promise<{ status: SessionStatus; paymentCollectionId: string }> {
    const { session, verdict } = await this.verifyForSession(fields, sessionId)
    const paymentCollectionId = session.payment_collection_id
    if (!verdict.verified) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "This PayBright result does not verify for this session")
    }
    if (verdict.outcome !== "completed") {
      return { status: verdict.outcome === "pending" ? "pending" : "declined", paymentCollectionId }
    }
    if (!suitsCaptureMode(verdict.result, this.options.captureMode)) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "This PayBright account's transaction type is not accepted")
    }
    return { status: "approved", paymentCollectionId }
  }
}
