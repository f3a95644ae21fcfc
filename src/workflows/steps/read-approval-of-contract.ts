import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { pluginRecords } from "../../lib/plugin-records"
import type { ApprovalRecord } from "../../lib/approval-record"

export const readApprovalOfContractStepId = "paybright-read-approval-of-contract-step"
export type ReadApprovalOfContractInput = { contract: string }
/**
 * A contract's approval row, or undefined before the plugin kept one (a lender result may be the
 * first it hears of the contract); read without a lock: a row is written once and never removed.
 */
export const readApprovalOfContractStep = createStep(
  readApprovalOfContractStepId,
  async (input: ReadApprovalOfContractInput, { container }): Promise<StepResponse<ApprovalRecord | undefined>> => {
    const service = pluginRecords(container)
    const [row] = (await service.listPayBrightApprovals({ contract: input.contract })) as ApprovalRecord[]
    return new StepResponse<ApprovalRecord | undefined>(row)
  }
)
