import { recordsWriter } from "../../lib/plugin-records"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { OrphanReason } from "../../modules/paybright/approval-reasons"
import type { ApprovalBefore } from "../../modules/paybright/records"
import { type ApprovalRecord } from "../../lib/approval-record"
import { approvalWords, logOrphan } from "../../lib/approval-words"

/** An approved contract that will not become an order: recorded once, logged once at error level. */
export const orphanApprovalStep = createStep(
  "paybright-orphan-approval-step",
  async (input: { approval_id: string; reason: OrphanReason }, { container }) => {
    const { approval, before, orphaned } = await recordsWriter(container).orphanApproval(
      input.approval_id,
      { reason: input.reason },
      approvalWords(container)
    )
    if (orphaned) logOrphan(container, approval, orphaned)
    return new StepResponse(approval as ApprovalRecord, before)
  },
  async (before: ApprovalBefore | null | undefined, { container }) => {
    if (before) await recordsWriter(container).restoreApproval(before)
  }
)
