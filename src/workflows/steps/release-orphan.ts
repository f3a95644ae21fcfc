import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { releaseOrphan } from "../../lib/release-contract"

/** An orphan released automatically, once it is final. */
export const releaseOrphanStep = createStep(
  "paybright-release-orphan-step",
  async (input: { approval_id: string }, { container }) =>
    new StepResponse(await releaseOrphan(container, input.approval_id))
)
