import { giveLock } from "../../locks/take-lock"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { paymentLockKey } from "../../locks/payment-lock"
import { noticeRemovedMovementStep } from "../steps/notice-removed-movement"
import { type PaymentGuardInput } from "./guard-payment-movement"

/** Releases what guardPaymentMovementWorkflow took, once the movement's record is what Medusa shows. */
export const releasePaymentMovementWorkflow = createWorkflow(
  "paybright-release-payment-movement-workflow",
  (input: PaymentGuardInput) => {
    const key = transform({ input }, ({ input }) => paymentLockKey(input.payment_id))
    noticeRemovedMovementStep({ payment_id: input.payment_id })
    giveLock(key, input.owner_id)
    return new WorkflowResponse(true)
  }
)
