import { MedusaError } from "@medusajs/framework/utils"

/** The one lock every PayBright capture or refund of a payment takes, whoever starts it. */
export function paymentLockKey(paymentId: string): string {
  return `paybright:payment:${paymentId}`
}

/**
 * The lock of an order's PayBright contract: its carry into the collection Medusa opens after an
 * order change, its void once the order is cancelled, and the merchant's cancellation take it, so
 * that none reads the order's payments while another is changing them.
 */
export function contractLockKey(orderId: string): string {
  return `paybright-carry:${orderId}`
}

/**
 * Whether a workflow failed because what it waits for stayed with another request (a lock, a cart
 * being completed): a CONFLICT MedusaError. The workflow engine hands errors on as plain objects,
 * so the type is read, never the class.
 */
export function isBusy(error: unknown): boolean {
  return (error as { type?: string } | null | undefined)?.type === MedusaError.Types.CONFLICT
}
