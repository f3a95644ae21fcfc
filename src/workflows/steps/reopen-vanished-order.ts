import { recordsWriter } from "../../lib/plugin-records"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { ApprovalBefore } from "../../modules/paybright/records"
import { orderExists } from "../../lib/find-checkout"
import { type ApprovalRecord } from "../../lib/approval-record"

/**
 * Under the cart's lock: an approval marked ordered whose order no longer exists (the completion
 * that made it was undone after a delivery saw the order) is approved again, so the sweep places
 * it or reports it as an orphan. An order that still exists leaves it alone.
 */
export const reopenVanishedOrderStep = createStep(
  "paybright-reopen-vanished-order-step",
  async (input: { approval_id: string }, { container }) => {
    const service = recordsWriter(container)
    const current = (await service.retrievePayBrightApproval(input.approval_id)) as ApprovalRecord
    const scope = container as unknown as MedusaContainer
    if (current.state !== "ordered" || !current.order_id || (await orderExists(scope, current.order_id))) {
      return new StepResponse(current, null as ApprovalBefore | null)
    }
    const { approval, before } = await service.reopenApproval(current.id)
    return new StepResponse(approval as ApprovalRecord, before)
  },
  async (before: ApprovalBefore | null | undefined, { container }) => {
    if (before) await recordsWriter(container).restoreApproval(before)
  }
)
