import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { type SessionUpdate, updatePayBrightSessionStep } from "./steps/update-session"

export const updatePayBrightSessionWorkflow = createWorkflow(
  "paybright-update-session-workflow",
  (input: SessionUpdate) => new WorkflowResponse(updatePayBrightSessionStep(input))
)
