import { recordsWriter } from "../../lib/plugin-records"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { OrphanReason } from "../../modules/paybright/approval-reasons"
import type { ApprovalBefore } from "../../modules/paybright/records"
import { orderHolding } from "../../lib/find-checkout"
import { type ApprovalRecord } from "../../lib/approval-record"
import { approvalWords, logOrphan } from "../../lib/approval-words"

/**
 * Under the cart's lock (as Medusa's completion takes it), once an approval's time is up: ordered
 * if an order holds its contract after all, otherwise an orphan, with what its last attempt to be
 * placed answered when the store gave up on it. Another delivery that decided it meanwhile is left
 * alone.
 */
export const orphanUnlessOrderedStep = createStep(
  "paybright-orphan-unless-ordered-step",
  async (input: { approval_id: string; reason: OrphanReason; placement_error?: string | null }, { container }) => {
    const service = recordsWriter(container)
    const current = (await service.retrievePayBrightApproval(input.approval_id)) as ApprovalRecord
    if (current.state !== "approved") {
      return new StepResponse(current, null as ApprovalBefore | null)
    }
    const { orderId } = (await orderHolding(container as unknown as MedusaContainer, current)) ?? {}
    if (orderId) {
      // Ordered stays ordered whatever follows: the order holds the contract.
      const approval = await service.markApprovalOrdered(current.id, orderId)
      return new StepResponse(approval as ApprovalRecord, null as ApprovalBefore | null)
    }
    const { approval, before, orphaned } = await service.orphanApproval(
      current.id,
      { reason: input.reason, placement_error: input.placement_error ?? null },
      approvalWords(container)
    )
    if (orphaned) logOrphan(container, approval, orphaned)
    return new StepResponse(approval as ApprovalRecord, before)
  },
  // The rest of the decision failed (the approval could not be withdrawn from its session): it is
  // an approval again, for the next delivery to decide; the report stays in its log.
  async (before: ApprovalBefore | null | undefined, { container }) => {
    if (before) await recordsWriter(container).restoreApproval(before)
  }
)
