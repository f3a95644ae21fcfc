import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { OrphanReason } from "../modules/paybright/approval-reasons"
import { orphanApprovalStep } from "./steps/orphan-approval"

export const orphanApprovalWorkflow = createWorkflow(
  "paybright-orphan-approval-workflow",
  (input: { approval_id: string; reason: OrphanReason }) => {
    const approval = orphanApprovalStep(input)
    return new WorkflowResponse(approval)
  }
)
