import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { voidOrphan } from "../../lib/void-contract"

/** An orphan voided automatically, once it is final. */
export const voidOrphanStep = createStep(
  "paybright-void-orphan-step",
  async (input: { approval_id: string }, { container }) =>
    new StepResponse(await voidOrphan(container, input.approval_id))
)
