import { recordsWriter } from "../../lib/plugin-records"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { doubtOf } from "../../lib/in-doubt"
import { medusaRowsOf } from "../../lib/record-queries"

/**
 * Once an admin's capture or refund has been answered, still under the payment's lock: a movement
 * the lender made whose Capture or Refund Medusa then removed (its update of the payment failed
 * after the provider's success) is put in doubt at once, before anything else can move.
 */
export const noticeRemovedMovementStep = createStep(
  "paybright-notice-removed-movement-step",
  async (input: { payment_id: string }, { container }) => {
    const doubt = await doubtOf(
      recordsWriter(container),
      input.payment_id,
      await medusaRowsOf(container, input.payment_id)
    )
    return new StepResponse(doubt?.id ?? null)
  }
)
