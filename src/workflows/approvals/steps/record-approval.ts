import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import {
  type ApprovalRecord,
  type RecordApprovalInput,
  approvalsOf,
  supersedes,
} from "../../../approvals/approval-record"
import { reportOrphan } from "../../../approvals/report-orphan"

/**
 * Writes the row of a contract the first time its approval is verified; a repeat finds it. A
 * second contract for a session that already has one is an orphan from the start. Runs under the
 * session's lock, so two approvals racing on one session are both recorded, one as an orphan.
 */
export const recordApprovalStep = createStep(
  "paybright-record-approval-step",
  async (input: RecordApprovalInput, { container }) => {
    const service = approvalsOf(container)
    const [existing] = (await service.listPayBrightApprovals({ contract: input.contract })) as ApprovalRecord[]
    if (existing && !supersedes(existing, input)) {
      return new StepResponse({ approval: existing, created: false })
    }
    const others = await service.listPayBrightApprovals({
      session_id: input.session_id,
      state: ["approved", "ordered"],
    })
    const reason = input.orphan_reason ?? (others.length > 0 ? "second_contract" : null)
    if (existing) {
      // A usable result for a contract first seen in a result the store could not use: it counts now.
      const approval = (await service.updatePayBrightApprovals({
        id: existing.id,
        session_id: input.session_id,
        cart_id: input.cart_id,
        lender_result: input.lender_result,
        channel: input.channel,
        state: reason ? "orphaned" : "approved",
        reason,
      })) as ApprovalRecord
      if (reason) await reportOrphan(container, service, approval)
      return new StepResponse({ approval, created: false })
    }
    const approval = (await service.createPayBrightApprovals({
      contract: input.contract,
      session_id: input.session_id,
      provider_id: input.provider_id,
      cart_id: input.cart_id,
      amount: input.amount,
      currency_code: input.currency_code,
      lender_result: input.lender_result,
      channel: input.channel,
      state: reason ? "orphaned" : "approved",
      reason,
    })) as ApprovalRecord
    await service.createPayBrightEvents({
      kind: "approval.verified",
      contract: approval.contract,
      actor: "lender",
      message: `PayBright approved contract ${approval.contract} for ${approval.amount} ${approval.currency_code}.`,
      details: { session_id: approval.session_id, cart_id: approval.cart_id, approval_id: approval.id },
    })
    if (reason) {
      await reportOrphan(container, service, approval)
    }
    return new StepResponse({ approval, created: true })
  }
)
