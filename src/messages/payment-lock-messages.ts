/** Why an admin's capture or refund is turned away before anything is sent: another movement of the payment holds its lock. */
export function paymentBusyMessage(movement: "capture" | "refund"): string {
  return `The ${movement} was not made: another capture or refund of this payment is running (it may have been started from a page that was since closed); nothing moved, so wait until it has ended, look at the order's PayBright panel, and try again if still needed.`
}

/** Why an order's cancellation is turned away before anything is done: a movement of its PayBright payment holds the lock. */
export function orderBusyMessage(): string {
  return "The order was not cancelled: a capture or refund of its PayBright payment is running; nothing changed, so wait until it has ended, look at the order's PayBright panel, and cancel again."
}
