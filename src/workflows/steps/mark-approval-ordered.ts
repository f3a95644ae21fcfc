import { recordsWriter } from "../../lib/plugin-records"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { type ApprovalRecord } from "../../lib/approval-record"

/** The order the approval became. */
export const markApprovalOrderedStep = createStep(
  "paybright-mark-approval-ordered-step",
  async (input: { approval_id: string; order_id: string }, { container }) => {
    const approval = await recordsWriter(container).markApprovalOrdered(input.approval_id, input.order_id)
    return new StepResponse(approval as ApprovalRecord)
  }
)
