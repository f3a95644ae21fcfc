import { giveLock } from "./take-lock"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { paymentLockKey } from "../lib/payment-lock"
import { noticeRemovedMovementStep } from "./steps/notice-removed-movement"
import { type PaymentGuardInput } from "./guard-payment-movement"

/** Once the movement is answered: its record made to say what Medusa shows, then the lock guardPaymentMovementWorkflow took given back. */
export const finishPaymentMovementWorkflow = createWorkflow(
  "paybright-finish-payment-movement-workflow",
  (input: PaymentGuardInput) => {
    const key = transform({ input }, ({ input }) => paymentLockKey(input.payment_id))
    noticeRemovedMovementStep({ payment_id: input.payment_id })
    giveLock(key, input.owner_id)
    return new WorkflowResponse(true)
  }
)
