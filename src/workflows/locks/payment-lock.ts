/** The one lock every PayBright capture or refund of a payment takes, whoever starts it. */
export function paymentLockKey(paymentId: string): string {
  return `paybright:payment:${paymentId}`
}
