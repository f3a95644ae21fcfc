import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { recordsWriter } from "../../lib/plugin-records"

export const putStaleCardMovementsInDoubtStepId = "paybright-put-stale-card-movements-in-doubt-step"

export type PutStaleCardMovementsInDoubtInput = { cutoff: string }

/**
 * The virtual card's charges and refunds left pending by a stopped process: in doubt.
 *
 * No compensation: taking a doubt back would let the card be charged again while it may have been.
 */
export const putStaleCardMovementsInDoubtStep = createStep(
  putStaleCardMovementsInDoubtStepId,
  async (input: PutStaleCardMovementsInDoubtInput, { container }) => {
    return new StepResponse(await recordsWriter(container).putStaleCardMovementsInDoubt(new Date(input.cutoff)))
  }
)
