import { giveLock } from "../../locks/take-lock"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { paymentLockKey } from "../../locks/payment-lock"
import { type PaymentGuardInput } from "./guard-payment-movement"

/** Releases what guardPaymentMovementWorkflow took. */
export const releasePaymentMovementWorkflow = createWorkflow(
  "paybright-release-payment-movement-workflow",
  (input: PaymentGuardInput) => {
    const key = transform({ input }, ({ input }) => paymentLockKey(input.payment_id))
    giveLock(key, input.owner_id)
    return new WorkflowResponse(true)
  }
)
