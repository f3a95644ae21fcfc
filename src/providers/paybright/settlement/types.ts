import type { PaymentData } from "../session-data"

/** One way the merchant is paid for a contract: the lender's in-store capture, or the virtual card. */
export interface Settlement {
  /** Proves the approval server-side where the mode allows it, and adds what capture will need. */
  confirm(payment: PaymentData): Promise<PaymentData>
  /** Captures `amount` for Medusa's capture `captureId`; a repeat with the same id is the same capture. */
  capture(payment: PaymentData, captureId: string, amount: string): Promise<PaymentData>
  /** Refunds `amount` for Medusa's refund `refundId`. */
  refund(payment: PaymentData, refundId: string, amount: string): Promise<PaymentData>
}
