import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { MedusaError } from "@medusajs/framework/utils"
import type { ApprovalRecord } from "../../../approvals/approval-record"

/** Stops a placement whose approval is no longer open: orphaned, released, or ordered already. */
export const requireOpenApprovalStep = createStep(
  "paybright-require-open-approval-step",
  async (approval: Pick<ApprovalRecord, "contract" | "state">) => {
    if (approval.state !== "approved") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `PayBright contract ${approval.contract} is ${approval.state}`
      )
    }
    return new StepResponse(approval.contract)
  }
)
