import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { type ApprovalRecord, approvalsOf } from "../../../approvals/approval-record"

/** The order the approval became. */
export const markApprovalOrderedStep = createStep(
  "paybright-mark-approval-ordered-step",
  async (input: { approval_id: string; order_id: string }, { container }) => {
    const service = approvalsOf(container)
    const approval = (await service.updatePayBrightApprovals({
      id: input.approval_id,
      state: "ordered",
      order_id: input.order_id,
    })) as ApprovalRecord
    return new StepResponse(approval)
  }
)
