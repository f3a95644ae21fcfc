import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { completionRunning } from "../../lib/cart-completion"

/** Medusa hands steps its container under a narrower type than the helpers take. */
const scopeOf = (container: unknown) => container as MedusaContainer

export const readCompletionRunningStepId = "paybright-read-completion-running-step"
export type ReadCompletionRunningInput = { payment_collection_id: string }
/**
 * Whether a completion of the cart paying with this collection is running (it holds the cart's
 * lock): until it ends, the order it made may still be undone by Medusa's compensation.
 */
export const readCompletionRunningStep = createStep(
  readCompletionRunningStepId,
  async (input: ReadCompletionRunningInput, { container }) => {
    return new StepResponse(await completionRunning(scopeOf(container), input.payment_collection_id))
  }
)
