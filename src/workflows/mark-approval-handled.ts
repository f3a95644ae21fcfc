import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { markApprovalHandledStep } from "./steps/mark-approval-handled"

export const markApprovalHandledWorkflow = createWorkflow(
  "paybright-mark-approval-handled-workflow",
  (input: { approval_id: string; actor: string }) => new WorkflowResponse(markApprovalHandledStep(input))
)
