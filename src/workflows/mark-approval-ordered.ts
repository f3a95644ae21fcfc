import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { markApprovalOrderedStep } from "./steps/mark-approval-ordered"

export const markApprovalOrderedWorkflow = createWorkflow(
  "paybright-mark-approval-ordered-workflow",
  (input: { approval_id: string; order_id: string }) => new WorkflowResponse(markApprovalOrderedStep(input))
)
