import { recordsWriter } from "../../lib/plugin-records"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { type ApprovalRecord } from "../../lib/approval-record"
import { approvalWords } from "../../lib/approval-words"

/** The merchant cancelled the orphaned contract in the PayBright portal. */
export const markApprovalHandledStep = createStep(
  "paybright-mark-approval-handled-step",
  async (input: { approval_id: string; actor: string }, { container }) => {
    const approval = await recordsWriter(container).markApprovalHandled(
      input.approval_id,
      input.actor,
      approvalWords(container)
    )
    return new StepResponse(approval as ApprovalRecord)
  }
)
