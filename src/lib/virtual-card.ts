import { spoken } from "./texts/said"
import { formatAmount, parseAmount } from "./texts/amount"
import { messageOf } from "./texts/log-text"
import type { ContractCard, LenderApi } from "../lenders/lender"
import { CardProcessorError, type CardDetails, type CardProcessor } from "./card-processors"
import type { PaymentData } from "./session-data"
import { cardBook, type CardBook } from "./card-book"
import { classifyFailure, redactDigitRuns } from "./classify-failure"
import type { ChannelMover, MovementContext, Moved } from "./settlement-types"

/**
 * The virtual card: the lender issues a single-use card for the contract; the plugin fetches it
 * just in time for each charge or refund and hands it to the merchant's card processor. Only the
 * card's token, last four digits, expiry and brand are kept; the PAN and CVV live for one call.
 */
export class VirtualCardMover implements ChannelMover {
  readonly via: string
  readonly cannotVoid =
    "PayBright's order-management API does not cover virtual-card contracts; nothing was charged on the card"

  constructor(
    private readonly lender: LenderApi,
    private readonly processor: CardProcessor,
    private readonly book: CardBook = cardBook
  ) {
    this.via = processor.name
  }

  /**
   * The card exists only for a completed contract (spec §1.3), so retrieving it proves the
   * approval. Nothing of it is kept: the payment's data is shown with the cart to the storefront;
   * the admin reads the masked card from the lender when it needs it.
   */
  async confirm(contract: string): Promise<void> {
    await this.lender.card(contract)
  }

  /** The processor's idempotency key: the same Medusa capture is always the same charge. */
  captureReference(_payment: PaymentData, movement: MovementContext): string {
    return `paybright-capture-${movement.medusaId}`
  }

  async capture(payment: PaymentData, movement: MovementContext): Promise<Moved> {
    const made = await this.book.chargeFor(movement.medusaId)
    if (made) {
      return { data: payment, evidence: { charge_id: made, processor: this.processor.name } }
    }
    const card = await this.lender.card(payment.gateway_reference)
    const idempotencyKey = this.captureReference(payment, movement)
    const row = await this.book.open({
      payment_id: movement.paymentId,
      kind: "charge",
      processor: this.processor.name,
      amount: movement.amount,
      medusa_id: movement.medusaId,
      idempotency_key: idempotencyKey,
    })
    const charged = await this.tracked(row, () =>
      this.processor.charge({
        card: cardDetails(card),
        amount: movement.amount,
        currency: payment.currency,
        idempotencyKey,
        description: `PayBright contract ${payment.gateway_reference}`,
        metadata: {
          paybright_contract: payment.gateway_reference,
          medusa_capture_id: movement.medusaId,
          medusa_payment_session_id: payment.session_id,
        },
      })
    )
    await this.book.conclude(row, "done", charged.chargeId)
    return {
      data: payment,
      evidence: { charge_id: charged.chargeId, amount: charged.amount, processor: this.processor.name },
    }
  }

  /**
   * Refunds go back to the charges, newest first, split across them when one is not enough; each
   * part is written as it succeeds. A part that fails after another went back leaves the refund
   * in doubt with the parts made named, so a person sees exactly what moved.
   */
  async refund(payment: PaymentData, movement: MovementContext): Promise<Moved> {
    const charges = await this.book.charges(movement.paymentId)
    let left = parseAmount(movement.amount)
    const parts: Record<string, string> = {}
    for (const charge of [...charges].reverse()) {
      if (left <= 0n) break
      const refundable = parseAmount(charge.amount) - parseAmount(charge.refunded)
      const part = refundable < left ? refundable : left
      if (part <= 0n) continue
      const idempotencyKey = `paybright-refund-${movement.medusaId}-${charge.processorId}`
      const row = await this.book.open({
        payment_id: movement.paymentId,
        kind: "refund",
        processor: this.processor.name,
        charge_id: charge.processorId,
        amount: formatAmount(part),
        medusa_id: movement.medusaId,
        idempotency_key: idempotencyKey,
      })
      try {
        const refunded = await this.tracked(row, () =>
          this.processor.refund({
            chargeId: charge.processorId,
            amount: formatAmount(part),
            currency: payment.currency,
            idempotencyKey,
          })
        )
        await this.book.conclude(row, "done", refunded.refundId)
      } catch (error) {
        if (Object.keys(parts).length > 0) {
          throw partlyRefunded(parts, charge.processorId, error, this.processor.name)
        }
        throw error
      }
      parts[`refunded_${charge.processorId}`] = formatAmount(part)
      left -= part
    }
    if (left > 0n) {
      const message = `only ${formatAmount(parseAmount(movement.amount) - left)} of the ${movement.amount} could go back to the virtual card, which was not charged more`
      if (Object.keys(parts).length > 0) {
        throw new CardProcessorError("processor_error", message, this.processor.name, "in_doubt")
      }
      throw new CardProcessorError("declined", message, this.processor.name, "refused")
    }
    return { data: payment, evidence: { ...parts, processor: this.processor.name } }
  }

  async void(): Promise<Moved> {
    throw new Error(this.cannotVoid)
  }

  /** Runs a processor call; its failure concludes the row with the failure's outcome. */
  private async tracked<T>(row: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call()
    } catch (error) {
      const failure = wrapProcessorError(error, this.processor.name)
      await this.book.conclude(row, failure.outcome)
      throw failure
    }
  }
}

/** A store's own processor may throw anything: keep its words, without any card number. */
function wrapProcessorError(error: unknown, processor: string): CardProcessorError {
  if (error instanceof CardProcessorError) {
    return new CardProcessorError(error.code, redactDigitRuns(error.message), processor, error.outcome)
  }
  const message = redactDigitRuns(messageOf(error)).slice(0, 300)
  return new CardProcessorError("processor_error", `${processor} failed: ${message}`, processor, "in_doubt")
}

function partlyRefunded(parts: Record<string, string>, failedCharge: string, error: unknown, processor: string) {
  const failure = classifyFailure(error)
  const made = Object.entries(parts)
    .map(([key, amount]) => `${amount} to ${key.replace("refunded_", "")}`)
    .join(", ")
  return new CardProcessorError(
    "processor_error",
    `${made} went back; the part on ${failedCharge} failed: ${spoken(failure.fact).message}`,
    processor,
    "in_doubt"
  )
}

export function cardDetails(card: ContractCard): CardDetails {
  return {
    pan: card.pan,
    cvv: card.cvv,
    expiration: card.expiration,
    cardholderName: card.cardholder_name,
    billingAddress: card.billing_address,
  }
}
