import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { recordApprovalStep } from "./steps/record-approval"
import { type RecordApprovalInput } from "../lib/approval-record"

/**
 * Records a verified approval (or finds it) where it cannot be placed now: an orphan from the
 * start, or one whose cart another completion holds. Two deliveries recording at once are ordered
 * by the table itself (see recordVerifiedApproval), so no lock is taken.
 */
export const recordApprovalWorkflow = createWorkflow(
  "paybright-record-approval-workflow",
  (input: RecordApprovalInput) => new WorkflowResponse(recordApprovalStep(input))
)
