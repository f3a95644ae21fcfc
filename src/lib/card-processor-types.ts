/**
 * How a virtual card is charged and refunded on the merchant's own card processor. The lender
 * issues the card; the plugin fetches it just in time and hands it to one of these. A processor
 * never stores or logs the card.
 */

/** The card as the lender issues it (spec §2.1), held in memory for one call only. */
export type CardDetails = {
  pan: string
  cvv: string
  /** MMYY with its leading zero. */
  expiration: string
  cardholderName: string
  billingAddress: { address1: string; city: string; state: string; postal_code: string; country: string }
}

export type ChargeInput = {
  card: CardDetails
  /** Two-decimal string, e.g. "123.45". */
  amount: string
  /** ISO-4217, upper case. */
  currency: string
  /** The same key always means the same charge: a repeat must not charge twice. */
  idempotencyKey: string
  description: string
  metadata: Record<string, string>
}

export type ChargeResult = {
  /** The processor's id for the charge; refunds name it. */
  chargeId: string
  amount: string
}

export type RefundInput = {
  chargeId: string
  amount: string
  currency: string
  idempotencyKey: string
}

export type RefundResult = { refundId: string; amount: string }

export interface CardProcessor {
  /** A short name shown to merchants, e.g. "stripe". */
  readonly name: string
  /** Whether the plugin may charge by itself (false: a person charges the card on a terminal). */
  readonly chargesAutomatically: boolean
  charge(input: ChargeInput): Promise<ChargeResult>
  refund(input: RefundInput): Promise<RefundResult>
}

/** Why a processor did not charge or refund, in words a merchant can act on. */
export type CardProcessorErrorCode =
  | "declined"
  | "expired_card"
  | "invalid_card"
  | "network"
  | "configuration"
  | "manual_action_required"
  | "processing"
  | "processor_error"

/** Codes after which the charge or refund may have been made; every other code means it was not. */
const MAY_HAVE_MOVED: ReadonlySet<CardProcessorErrorCode> = new Set(["network", "processing", "processor_error"])

/**
 * Why a processor did not charge or refund, as facts. `outcome` says whether money certainly did
 * not move (`refused`) or may have (`in_doubt`); it follows from the code unless given.
 */
export class CardProcessorError extends Error {
  readonly outcome: "refused" | "in_doubt"

  constructor(
    readonly code: CardProcessorErrorCode,
    message: string,
    readonly processor: string,
    outcome?: "refused" | "in_doubt"
  ) {
    super(message)
    this.name = "CardProcessorError"
    this.outcome = outcome ?? (MAY_HAVE_MOVED.has(code) ? "in_doubt" : "refused")
  }
}
