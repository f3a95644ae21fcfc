import { recordsWriter } from "../../../modules/paybright/plugin-records"
import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { blockedMessage, doubtOf } from "../../../money/in-doubt"
import { medusaRowsOf } from "../../../money/record-queries"
import { MerchantError } from "../../../messages/merchant-error"

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
