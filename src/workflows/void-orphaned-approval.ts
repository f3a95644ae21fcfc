import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { lockOfApprovalStep } from "./steps/lock-of-approval"
import { voidOrphanStep } from "./steps/void-orphan"
import { cancelVoidedOrphanPaymentsStep } from "./steps/cancel-voided-orphan-payments"
import { giveLock, takeLock } from "./take-lock"

/**
 * The job's void of an orphaned approval once it is final, under its cart's lock (the lock
 * Medusa's completion takes), so no order can be placed on the contract while it is voided; then
 * Medusa's payments left live on the contract are cancelled.
 */
export const voidOrphanedApprovalWorkflow = createWorkflow(
  "paybright-void-orphaned-approval-workflow",
  (input: { approval_id: string }) => {
    const located = lockOfApprovalStep(input)
    const key = transform({ located }, ({ located }) => located.lock_key)
    const owner = takeLock(key)
    const outcome = voidOrphanStep(input)
    giveLock(key, owner)
    cancelVoidedOrphanPaymentsStep(transform({ located }, ({ located }) => ({ contract: located.contract })))
    return new WorkflowResponse(outcome)
  }
)
