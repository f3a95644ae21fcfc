import { MedusaError } from "@medusajs/framework/utils"

/** The one lock every PayBright capture or refund of a payment takes, whoever starts it. */
export function paymentLockKey(paymentId: string): string {
  return `paybright:payment:${paymentId}`
}

/**
 * Whether a workflow failed because what it waits for stayed with another request (a lock, a cart
 * being completed): a CONFLICT MedusaError. The workflow engine hands errors on as plain objects,
 * so the type is read, never the class.
 */
export function isBusy(error: unknown): boolean {
  return (error as { type?: string } | null | undefined)?.type === MedusaError.Types.CONFLICT
}
