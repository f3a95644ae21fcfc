import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { captureInMedusa } from "../../lib/make-capture"

export const captureInMedusaStepId = "paybright-capture-in-medusa-step"

export type CaptureInMedusaInput = { payment_id: string; amount: string }

/**
 * Medusa's capture workflow for the prepared record; answers its error, if it failed.
 *
 * Run from this step rather than by runAsStep: its error is what the record then tells the
 * merchant, which a later step cannot read off a failed runAsStep, and its failure must end this
 * workflow with the record's outcome, never undo it.
 *
 * No compensation: the money moved at the lender (Medusa keeps none for a capture either).
 */
export const captureInMedusaStep = createStep(
  captureInMedusaStepId,
  async (input: CaptureInMedusaInput, { container }) => {
    return new StepResponse({ error: await captureInMedusa(container, input) })
  }
)
