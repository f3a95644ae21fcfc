import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { MedusaError } from "@medusajs/framework/utils"
import { pluginRecords } from "../../lib/plugin-records"

export const requireOpenApprovalStepId = "paybright-require-open-approval-step"

export type RequireOpenApprovalInput = { approval_id: string }

/**
 * Under the cart's lock, stops a placement whose approval is no longer open (orphaned, voided,
 * or ordered by another delivery since it was recorded). A read: nothing to undo.
 */
export const requireOpenApprovalStep = createStep(
  requireOpenApprovalStepId,
  async (input: RequireOpenApprovalInput, { container }) => {
    const approval = await pluginRecords(container).retrievePayBrightApproval(input.approval_id)
    if (approval.state !== "approved") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `PayBright contract ${approval.contract} is ${approval.state}`
      )
    }
    return new StepResponse(approval.contract)
  }
)
