import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { type OrphanReason } from "../../../messages/approval-messages"
import { orderHolding } from "../find-checkout"
import { type ApprovalRecord, approvalsOf, reportOrphan } from "../approval-record"

/**
 * Under the cart's lock (as Medusa's completion takes it), once an approval's time is up: ordered
 * if an order holds its contract after all, otherwise an orphan. Another delivery that decided it
 * meanwhile is left alone.
 */
export const orphanUnlessOrderedStep = createStep(
  "paybright-orphan-unless-ordered-step",
  async (input: { approval_id: string; reason: OrphanReason }, { container }) => {
    const service = approvalsOf(container)
    const current = (await service.retrievePayBrightApproval(input.approval_id)) as ApprovalRecord
    if (current.state !== "approved") {
      return new StepResponse(current)
    }
    const { orderId } = (await orderHolding(container as unknown as MedusaContainer, current)) ?? {}
    if (orderId) {
      const ordered = (await service.updatePayBrightApprovals({
        id: current.id,
        state: "ordered",
        order_id: orderId,
      })) as ApprovalRecord
      return new StepResponse(ordered)
    }
    const orphan = (await service.updatePayBrightApprovals({
      id: current.id,
      state: "orphaned",
      reason: input.reason,
    })) as ApprovalRecord
    await reportOrphan(container, service, orphan)
    return new StepResponse(orphan)
  }
)
