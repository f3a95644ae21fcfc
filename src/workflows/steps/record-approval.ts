import { recordsWriter } from "../../lib/plugin-records"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { type ApprovalRecord, type RecordApprovalInput } from "../../lib/approval-record"
import { approvalWords, logOrphan } from "../../lib/approval-words"

/**
 * Writes the row of a contract the first time its approval is verified; a repeat finds it. A
 * second contract for a session that already has one is an orphan from the start: two approvals
 * racing on one session are both recorded, one as an orphan.
 */
export const recordApprovalStep = createStep(
  "paybright-record-approval-step",
  async (input: RecordApprovalInput, { container }) => {
    const { approval, created, orphaned } = await recordsWriter(container).recordVerifiedApproval(
      input,
      approvalWords(container)
    )
    if (orphaned) logOrphan(container, approval, orphaned)
    return new StepResponse({ approval: approval as ApprovalRecord, created })
  }
)
