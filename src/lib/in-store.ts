import type { Lender, LenderApi } from "../lenders/lender"
import type { PaymentData } from "./session-data"
import type { ChannelMover, MovementContext, Moved } from "./settlement-types"

/** In-store capture and refund at the lender, by the contract (spec §4.2). */
export class InStoreMover implements ChannelMover {
  readonly via: string

  constructor(
    lender: Pick<Lender, "name">,
    private readonly api: LenderApi
  ) {
    this.via = lender.name
  }

  /**
   * The spec's x_reference is the merchant's reference for the order: the reference the
   * application carried (the payment session's id), the only one the lender knows the order by.
   */
  captureReference(payment: PaymentData): string {
    return payment.session_id
  }

  async capture(payment: PaymentData, movement: MovementContext): Promise<Moved> {
    const evidence = await this.api.capture({
      contract: payment.gateway_reference,
      reference: this.captureReference(payment),
      amount: movement.amount,
      currency: payment.currency,
      test: payment.test,
    })
    return { data: payment, evidence }
  }

  async refund(payment: PaymentData, movement: MovementContext): Promise<Moved> {
    const evidence = await this.api.refund({ contract: payment.gateway_reference, amount: movement.amount })
    return { data: payment, evidence }
  }

  /** The authorization as the application asked for it: the same reference and amount. */
  async void(payment: PaymentData, callbackUrl: string): Promise<Moved> {
    const evidence = await this.api.void({
      contract: payment.gateway_reference,
      reference: this.captureReference(payment),
      amount: payment.amount,
      currency: payment.currency,
      test: payment.test,
      callbackUrl,
    })
    return { data: payment, evidence }
  }
}
