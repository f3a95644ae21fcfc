import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { assertCaptureWithinOwedStep } from "./steps/assert-capture-within-owed"
import { paymentLockKey } from "../lib/payment-lock"
import { assertNoDoubtStep } from "./steps/assert-no-doubt"
import { movementLeaseStep } from "./steps/movement-lease"
import { takeLock } from "./take-lock"

export type PaymentGuardInput = {
  payment_id: string
  owner_id: string
  movement: "capture" | "refund"
  /** What the admin asked Medusa to move; none for Medusa's whole remainder. */
  amount?: number
}

/**
 * Before an admin's capture or refund of a payment: takes the payment's lock (the one the
 * plugin's own captures take) for the request's owner, and refuses while a movement is in doubt,
 * or a capture above what the payment may still capture for what its order owes now,
 * giving the lock back (the lock step's compensation). Once the route has answered, the work
 * is over and finishPaymentMovementWorkflow gives it back.
 */
export const guardPaymentMovementWorkflow = createWorkflow(
  "paybright-guard-payment-movement-workflow",
  (input: PaymentGuardInput) => {
    const key = transform({ input }, ({ input }) => paymentLockKey(input.payment_id))
    const ttl = movementLeaseStep({ payment_id: input.payment_id, movement: input.movement })
    takeLock(key, { owner: input.owner_id, ttl })
    assertNoDoubtStep({ payment_id: input.payment_id })
    when({ input }, ({ input }) => input.movement === "capture").then(() =>
      assertCaptureWithinOwedStep({ payment_id: input.payment_id, amount: input.amount })
    )
    return new WorkflowResponse(true)
  }
)
