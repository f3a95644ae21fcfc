import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { type OrphanReason } from "../../../messages/approval-messages"
import { orderHolding } from "../../../approvals/find-checkout"
import { type ApprovalRecord, approvalsOf } from "../../../approvals/approval-record"
import { reportOrphan } from "../../../approvals/report-orphan"

/**
 * Under the cart's lock (as Medusa's completion takes it), once an approval's time is up: ordered
 * if an order holds its contract after all, otherwise an orphan, with what its last attempt to be
 * placed answered when the store gave up on it. Another delivery that decided it meanwhile is left
 * alone.
 */
export const orphanUnlessOrderedStep = createStep(
  "paybright-orphan-unless-ordered-step",
  async (input: { approval_id: string; reason: OrphanReason; placement_error?: string | null }, { container }) => {
    const service = approvalsOf(container)
    const current = (await service.retrievePayBrightApproval(input.approval_id)) as ApprovalRecord
    if (current.state !== "approved") {
      return new StepResponse(current, { id: current.id, orphaned: false })
    }
    const { orderId } = (await orderHolding(container as unknown as MedusaContainer, current)) ?? {}
    if (orderId) {
      const ordered = (await service.updatePayBrightApprovals({
        id: current.id,
        state: "ordered",
        order_id: orderId,
      })) as ApprovalRecord
      return new StepResponse(ordered, { id: current.id, orphaned: false })
    }
    const orphan = (await service.updatePayBrightApprovals({
      id: current.id,
      state: "orphaned",
      reason: input.reason,
      placement_error: input.placement_error ?? null,
    })) as ApprovalRecord
    await reportOrphan(container, service, orphan)
    return new StepResponse(orphan, { id: current.id, orphaned: true })
  },
  // The rest of the decision failed (the approval could not be withdrawn from its session): it is
  // an approval again, for the next delivery to decide; the report stays in its log.
  async (undo: { id: string; orphaned: boolean } | undefined, { container }) => {
    if (!undo?.orphaned) return
    await approvalsOf(container).updatePayBrightApprovals({
      id: undo.id,
      state: "approved",
      reason: null,
      placement_error: null,
    })
  }
)
