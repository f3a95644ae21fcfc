import type { LenderClient } from "../lenders/paybright/client"
import type { PaymentData } from "./session-data"
import type { ChannelMover, MovementContext, Moved } from "./settlement-types"

/** In-store capture and refund at the lender, by the contract's gateway reference (spec §4.2). */
export class InStoreMover implements ChannelMover {
  readonly via = "PayBright"

  constructor(
    private readonly lender: LenderClient,
    private readonly apiKey: string
  ) {}

  /**
   * The spec's x_reference is the merchant's reference for the order: the reference the
   * application carried (the payment session's id), the only one the lender knows the order by.
   */
  captureReference(payment: PaymentData): string {
    return payment.session_id
  }

  async capture(payment: PaymentData, movement: MovementContext): Promise<Moved> {
    const answer = await this.lender.capture(payment.gateway_reference, {
      x_account_id: this.apiKey,
      x_amount: movement.amount,
      x_reference: this.captureReference(payment),
      x_currency: payment.currency,
      x_test: payment.test,
    })
    return { data: payment, evidence: evidenceOf(answer) }
  }

  async refund(payment: PaymentData, movement: MovementContext): Promise<Moved> {
    const answer = await this.lender.refund(payment.gateway_reference, movement.amount)
    return { data: payment, evidence: evidenceOf(answer) }
  }

  /** The authorization as the application asked for it: the same reference and amount. */
  async release(payment: PaymentData, callbackUrl: string): Promise<Moved> {
    const answer = await this.lender.voidAuthorization(payment.gateway_reference, {
      reference: this.captureReference(payment),
      amount: payment.amount,
      currency: payment.currency,
      test: payment.test,
      callbackUrl,
    })
    return { data: payment, evidence: evidenceOf(answer) }
  }
}

function evidenceOf(answer: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(answer)
      .filter(([, value]) => ["string", "number", "boolean"].includes(typeof value))
      .map(([name, value]) => [name, String(value)])
  )
}
