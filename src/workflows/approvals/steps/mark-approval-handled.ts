import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { MedusaError } from "@medusajs/framework/utils"
import { type ApprovalRecord, approvalsOf } from "../../../approvals/approval-record"

/** The merchant cancelled the orphaned contract in the PayBright portal. */
export const markApprovalHandledStep = createStep(
  "paybright-mark-approval-handled-step",
  async (input: { approval_id: string; actor: string }, { container }) => {
    const service = approvalsOf(container)
    const [current] = (await service.listPayBrightApprovals({ id: input.approval_id })) as ApprovalRecord[]
    if (!current) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `PayBright approval ${input.approval_id} was not found`)
    }
    if (current.state === "handled") {
      return new StepResponse(current)
    }
    if (current.state !== "orphaned") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `PayBright contract ${current.contract} is ${current.state}, not orphaned: there is nothing to handle`
      )
    }
    const approval = (await service.updatePayBrightApprovals({
      id: current.id,
      state: "handled",
      handled_by: input.actor,
      handled_at: new Date(),
    })) as ApprovalRecord
    await service.createPayBrightEvents({
      kind: "approval.handled",
      contract: approval.contract,
      actor: input.actor,
      message: `Contract ${approval.contract} was marked as cancelled in the PayBright portal.`,
      details: { approval_id: approval.id },
    })
    return new StepResponse(approval)
  }
)
