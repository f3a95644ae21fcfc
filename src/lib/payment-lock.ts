/** The one lock every PayBright capture or refund of a payment takes, whoever starts it. */
export function paymentLockKey(paymentId: string): string {
  return `paybright:payment:${paymentId}`
}

/** The name of the step that waits for a payment's lock: its failure means another movement holds it. */
export const PAYMENT_LOCK_STEP = "paybright-lock-payment"
