import type { PaymentData } from "./session-data"

/** A movement the lender or processor confirmed: the payment's data after it, and what was answered. */
export type Moved = { data: PaymentData; evidence: Record<string, string> }

/** What a channel's mover needs to know of the Medusa movement it carries out. */
export type MovementContext = {
  paymentId: string
  /** Medusa's Capture or Refund id. */
  medusaId: string
  /** Two-decimal amount. */
  amount: string
}

/**
 * What moves a contract's money through its payment's channel: the lender's in-store capture, or
 * the virtual card charged through a card processor. Failures throw a LenderError or CardProcessorError carrying their outcome (refused / in doubt).
 */
export interface ChannelMover {
  /** Who moves the money, as the merchant knows it: "PayBright", or the card processor's name. */
  readonly via: string
  /**
   * Why the lender's API cannot void this contract, when it cannot: the order-management call
   * covers in-store contracts only. Undefined when `void` works.
   */
  readonly cannotVoid?: string
  /**
   * Proves a contract's approval server-side, where the mode allows it (the virtual card is read);
   * none where there is nothing to prove (in-store, the lender captures by the contract itself).
   */
  confirm?(contract: string): Promise<void>
  /** The reference the capture carries to the lender or processor. */
  captureReference(payment: PaymentData, movement: MovementContext): string
  capture(payment: PaymentData, movement: MovementContext): Promise<Moved>
  refund(payment: PaymentData, movement: MovementContext): Promise<Moved>
  /**
   * Voids the contract's whole authorization at the lender, so the shopper carries no loan
   * (order-management call, docs/protocol); the lender also posts the result to `callbackUrl`.
   */
  void(payment: PaymentData, callbackUrl: string): Promise<Moved>
}
