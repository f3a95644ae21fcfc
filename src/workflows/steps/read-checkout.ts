import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { findCheckout } from "../../lib/find-checkout"

/** Medusa hands steps its container under a narrower type than the helpers take. */
const scopeOf = (container: unknown) => container as MedusaContainer

export const readCheckoutStepId = "paybright-read-checkout-step"
export type ReadCheckoutInput = { session_id: string }
/** The PayBright session a result names, its cart, country and order, if Medusa still has it. */
export const readCheckoutStep = createStep(readCheckoutStepId, async (input: ReadCheckoutInput, { container }) => {
  return new StepResponse(await findCheckout(scopeOf(container), input.session_id))
})
