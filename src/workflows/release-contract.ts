import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { lockOfRecordStep } from "./steps/lock-of-record"
import { lockOfApprovalStep, releaseOrphanStep, retryReleaseStep } from "./steps/release-contract"
import { giveLock, takeLock } from "./steps/take-lock"

/**
 * The job's release of an orphaned approval once it is final, under its cart's lock (the lock
 * Medusa's completion takes), so no order can be placed on the contract while it is voided.
 */
export const releaseOrphanedApprovalWorkflow = createWorkflow(
  "paybright-release-orphaned-approval-workflow",
  (input: { approval_id: string }) => {
    const located = lockOfApprovalStep(input)
    const key = transform({ located }, ({ located }) => located.lock_key)
    const owner = takeLock(key)
    const outcome = releaseOrphanStep(input)
    giveLock(key, owner)
    return new WorkflowResponse(outcome)
  }
)

/** `POST /admin/paybright/voids/:id/retry`: a new attempt at a release the lender refused, under the record's lock. */
export const retryReleaseWorkflow = createWorkflow(
  "paybright-retry-release-workflow",
  (input: { record_id: string }) => {
    const located = lockOfRecordStep(input)
    const key = transform({ located }, ({ located }) => located.lock_key)
    const owner = takeLock(key)
    const record = retryReleaseStep(input)
    giveLock(key, owner)
    return new WorkflowResponse(record)
  }
)
