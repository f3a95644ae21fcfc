import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { voidContractOfCancelledOrder } from "../../lib/void-contract"
import type { PaymentData } from "../../lib/session-data"

export const VOID_CANCELLED_CONTRACT_STEP = "paybright-void-cancelled-contract-step"

/**
 * Voids a cancelled order's contract at the lender, once, through the money funnel: done, refused
 * or in doubt, as its record says. No compensation: a void the lender made cannot be taken back,
 * and its record is what a person acts on.
 */
export const voidCancelledContractStep = createStep(
  VOID_CANCELLED_CONTRACT_STEP,
  async (input: { order_id: string; from: { id: string; provider_id: string; data: PaymentData } }, { container }) =>
    new StepResponse(await voidContractOfCancelledOrder(container, input.from))
)
