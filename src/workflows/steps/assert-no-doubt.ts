import { recordsWriter } from "../../lib/plugin-records"
import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { blockedMessage, doubtOf } from "../../lib/in-doubt"
import { medusaRowsOf } from "../../lib/record-queries"
import { MerchantError } from "../../lib/merchant-error"

/**
 * Refuses while a capture or refund of the payment is in doubt, or made at the lender though
 * Medusa has since removed its Capture or Refund (which doubtOf puts in doubt now).
 */
export const assertNoDoubtStep = createStep(
  "paybright-assert-no-doubt-step",
  async (input: { payment_id: string }, { container }) => {
    const doubt = await doubtOf(
      recordsWriter(container),
      input.payment_id,
      await medusaRowsOf(container, input.payment_id)
    )
    if (doubt) {
      throw new MerchantError(MedusaError.Types.NOT_ALLOWED, blockedMessage(doubt))
    }
    return new StepResponse(true)
  }
)
