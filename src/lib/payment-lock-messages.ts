import { said, type Said } from "./texts/said"

/** Why an admin's capture or refund is turned away before anything is sent: another movement of the payment holds its lock. */
export function paymentBusyMessage(movement: "capture" | "refund"): Said {
  return said(`payment_busy_${movement}`)
}

/** Why an order's cancellation is turned away before anything is done: a movement of its PayBright payment holds the lock. */
export function orderBusyMessage(): Said {
  return said("order_busy")
}
