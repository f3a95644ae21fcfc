import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { recordApprovalStep } from "../steps/record-approval"
import { type RecordApprovalInput } from "../../../approvals/approval-record"
import { giveLock, takeLock } from "../../locks/take-lock"
import { sessionApprovalsLockKey } from "../../../locks/cart-lock"

/** Records a verified approval (or finds it), under the lock of its payment session. */
export const recordApprovalWorkflow = createWorkflow(
  "paybright-record-approval-workflow",
  (input: RecordApprovalInput) => {
    const key = transform({ input }, ({ input }) => sessionApprovalsLockKey(input.session_id))
    const owner = takeLock(key, { timeout: 15, ttl: 30 })
    const recorded = recordApprovalStep(input)
    giveLock(key, owner)
    return new WorkflowResponse(recorded)
  }
)
