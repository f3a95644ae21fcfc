import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { lockOfRecordStep } from "./steps/lock-of-record"
import { retryReleaseStep } from "./steps/retry-release"
import { cancelReleasedPaymentsStep } from "./steps/cancel-released-payments"
import { giveLock, takeLock } from "./take-lock"

/** `POST /admin/paybright/voids/:id/retry`: a new attempt at a release the lender refused, under the record's lock. */
export const retryReleaseWorkflow = createWorkflow(
  "paybright-retry-release-workflow",
  (input: { record_id: string }) => {
    const located = lockOfRecordStep(input)
    const key = transform({ located }, ({ located }) => located.lock_key)
    const owner = takeLock(key)
    const record = retryReleaseStep(input)
    giveLock(key, owner)
    // An orphan's release (no payment on the record) leaves Medusa's payments on the contract to cancel.
    cancelReleasedPaymentsStep(
      transform({ record }, ({ record }) => ({ contract: record.payment_id ? null : record.contract }))
    )
    return new WorkflowResponse(record)
  }
)
