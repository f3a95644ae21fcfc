import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { orderExists } from "../../../approvals/find-checkout"
import { type ApprovalRecord, approvalsOf } from "../../../approvals/approval-record"

/** What compensation puts back: the order the approval was marked with. */
type MarkedOrdered = { id: string; order_id: string } | null

/**
 * Under the cart's lock: an approval marked ordered whose order no longer exists (the completion
 * that made it was undone after a delivery saw the order) is approved again, so the sweep places
 * it or reports it as an orphan. An order that still exists leaves it alone.
 */
export const reopenVanishedOrderStep = createStep(
  "paybright-reopen-vanished-order-step",
  async (input: { approval_id: string }, { container }) => {
    const service = approvalsOf(container)
    const current = (await service.retrievePayBrightApproval(input.approval_id)) as ApprovalRecord
    const scope = container as unknown as MedusaContainer
    if (current.state !== "ordered" || !current.order_id || (await orderExists(scope, current.order_id))) {
      return new StepResponse<ApprovalRecord, MarkedOrdered>(current, null)
    }
    const reopened = (await service.updatePayBrightApprovals({
      id: current.id,
      state: "approved",
      order_id: null,
    })) as ApprovalRecord
    return new StepResponse<ApprovalRecord, MarkedOrdered>(reopened, { id: current.id, order_id: current.order_id })
  },
  async (before: MarkedOrdered | undefined, { container }) => {
    if (!before) return
    await approvalsOf(container).updatePayBrightApprovals({
      id: before.id,
      state: "ordered",
      order_id: before.order_id,
    })
  }
)
