import { MedusaError } from "@medusajs/framework/utils"
import { formatAmount, parseAmount } from "../../../lender/amount"
import type { LenderClient } from "../../../lender/client"
import type { VirtualCard } from "../../../lender/schemas"
import { CardProcessorError, type CardDetails, type CardProcessor } from "../../../card-processors"
import type { PaymentData } from "../session-data"
import type { Settlement } from "./types"

/**
 * The virtual card: the lender issues a single-use card for the contract; the plugin fetches it
 * just in time for each charge or refund and hands it to the merchant's card processor. Only the
 * card's token, last four digits, expiry and brand are kept; the PAN and CVV live for one call.
 */
export class VirtualCardSettlement implements Settlement {
  constructor(
    private readonly lender: LenderClient,
    private readonly processor: CardProcessor
  ) {}

  /**
   * The card exists only for a completed contract (spec §1.3), so retrieving it proves the
   * approval. Nothing of it is kept: the payment's data is shown with the cart to the storefront;
   * the admin reads the masked card from the lender when it needs it.
   */
  async confirm(payment: PaymentData): Promise<PaymentData> {
    await this.lender.getVirtualCard(payment.gateway_reference)
    return { ...payment, charges: payment.charges ?? [] }
  }

  async capture(payment: PaymentData, captureId: string, amount: string): Promise<PaymentData> {
    const charges = payment.charges ?? []
    const done = charges.find((charge) => charge.capture_id === captureId)
    if (done) {
      return payment
    }
    const card = await this.lender.getVirtualCard(payment.gateway_reference)
    const charged = await this.explain("charge", () =>
      this.processor.charge({
        card: cardDetails(card),
        amount,
        currency: payment.currency,
        idempotencyKey: `paybright-capture-${captureId}`,
        description: `PayBright contract ${payment.gateway_reference}`,
        metadata: {
          paybright_contract: payment.gateway_reference,
          medusa_capture_id: captureId,
          medusa_payment_session_id: payment.session_id,
        },
      })
    )
    return {
      ...payment,
      charges: [...charges, { id: charged.chargeId, capture_id: captureId, amount, refunded: "0.00" }],
    }
  }

  /** Refunds go back to the same charges, newest first, split across them when one is not enough. */
  async refund(payment: PaymentData, refundId: string, amount: string): Promise<PaymentData> {
    const charges = [...(payment.charges ?? [])]
    let left = parseAmount(amount)
    for (let index = charges.length - 1; index >= 0 && left > 0n; index--) {
      const charge = charges[index]
      const refundable = parseAmount(charge.amount) - parseAmount(charge.refunded)
      const part = refundable < left ? refundable : left
      if (part <= 0n) {
        continue
      }
      await this.explain("refund", () =>
        this.processor.refund({
          chargeId: charge.id,
          amount: formatAmount(part),
          currency: payment.currency,
          idempotencyKey: `paybright-refund-${refundId}-${charge.id}`,
        })
      )
      charges[index] = { ...charge, refunded: formatAmount(parseAmount(charge.refunded) + part) }
      left -= part
    }
    if (left > 0n) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Only ${formatAmount(parseAmount(amount) - left)} ${payment.currency} of the ${amount} refund could go back to the virtual card: the card was not charged more`
      )
    }
    return { ...payment, charges }
  }

  private async explain<T>(operation: "charge" | "refund", call: () => Promise<T>): Promise<T> {
    try {
      return await call()
    } catch (error) {
      if (error instanceof CardProcessorError) {
        const advice: Record<CardProcessorError["code"], string> = {
          declined: "Check the contract with PayBright, then try again.",
          expired_card: "Ask PayBright to reissue the contract's card, then try again.",
          invalid_card: "Ask PayBright about the contract's card, then try again.",
          network: "Try again in a moment.",
          configuration: "Fix the card processor's settings, then try again.",
          manual_action_required: "Charge the card on your terminal, then capture again.",
          processor_error: "Check the processor's dashboard, then try again.",
        }
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `The ${operation} on the PayBright virtual card failed: ${error.message}. ${advice[error.code]}`
        )
      }
      throw error
    }
  }
}

export function cardDetails(card: VirtualCard): CardDetails {
  return {
    pan: card.pan,
    cvv: card.cvv,
    expiration: card.expiration,
    cardholderName: card.cardholder_name,
    billingAddress: card.billing_address,
  }
}
