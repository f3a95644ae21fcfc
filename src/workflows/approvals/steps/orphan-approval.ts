import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { type OrphanReason } from "../../../messages/approval-messages"
import { type ApprovalRecord, approvalsOf } from "../../../approvals/approval-record"
import { reportOrphan } from "../../../approvals/report-orphan"

/** An approved contract that will not become an order: recorded once, logged once at error level. */
export const orphanApprovalStep = createStep(
  "paybright-orphan-approval-step",
  async (input: { approval_id: string; reason: OrphanReason }, { container }) => {
    const service = approvalsOf(container)
    const current = (await service.retrievePayBrightApproval(input.approval_id)) as ApprovalRecord
    if (current.state !== "approved") {
      return new StepResponse(current, undefined as string | undefined)
    }
    const approval = (await service.updatePayBrightApprovals({
      id: current.id,
      state: "orphaned",
      reason: input.reason,
    })) as ApprovalRecord
    await reportOrphan(container, service, approval)
    return new StepResponse(approval, current.id as string | undefined)
  },
  async (id: string | undefined, { container }) => {
    if (id) {
      await approvalsOf(container).updatePayBrightApprovals({ id, state: "approved", reason: null })
    }
  }
)
