import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { pluginRecords } from "../../lib/plugin-records"

export const readSessionApprovalStepId = "paybright-read-session-approval-step"
export type ReadSessionApprovalInput = { session_id: string }
/** Whether the session holds an approval (approved or ordered): a decline arriving later leaves it be. */
export const readSessionApprovalStep = createStep(
  readSessionApprovalStepId,
  async (input: ReadSessionApprovalInput, { container }) => {
    const service = pluginRecords(container)
    return new StepResponse(!!(await service.approvalOfSession(input.session_id)).open)
  }
)
