import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { markPlacedApproval } from "../../../approvals/placed-approval"

export type PlacedApproval = { approval_id: string; contract: string; order_id: string; payment_collection_id: string }

/** The approval marked ordered when the order its cart's completion answered is paid by it; never fails. */
export const markPlacedApprovalStep = createStep(
  "paybright-mark-placed-approval-step",
  async (input: PlacedApproval, { container }) =>
    new StepResponse(await markPlacedApproval(container as unknown as MedusaContainer, input))
)
