import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { lockOfRecordStep } from "../../money-records/steps/lock-of-record"
import { retryReleaseStep } from "../steps/retry-release"
import { giveLock, takeLock } from "../../locks/take-lock"

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
