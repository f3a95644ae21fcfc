/** Why an admin's capture or refund is turned away before anything is sent: another movement of the payment holds its lock. */
export function paymentBusyMessage(movement: "capture" | "refund"): string {
  return `The ${movement} was not made: another capture or refund of this payment is running (it may have been started from a page that was since closed); nothing moved, so wait until it has ended, look at the order's PayBright panel, and try again if still needed.`
}
