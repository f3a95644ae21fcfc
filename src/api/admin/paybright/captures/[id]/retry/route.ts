import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { paymentBusyMessage } from "../../../../../../lib/payment-lock-messages"
import { capturePaymentOnceWorkflow } from "../../../../../../workflows/capture-payment-once"
import { isBusy } from "../../../../../../lib/payment-lock"
import { MerchantError } from "../../../../../../lib/merchant-error"
import { said, spoken } from "../../../../../../lib/texts/said"
import { answeringSentences } from "../../../merchant-errors"

/**
 * POST /admin/paybright/captures/:id/retry: a new attempt of a refused capture (never of one in
 * doubt). While another movement of the payment holds its lock, 409 and nothing sent: the refused
 * capture stays as it was, to be retried again.
 */
export const POST = answeringSentences(async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const { result, errors } = await capturePaymentOnceWorkflow(req.scope).run({
    input: { retry_record_id: req.params.id },
    throwOnError: false,
  })
  const failure = errors?.[0]
  if (failure && isBusy(failure.error)) {
    // Answered here: Medusa's error handler replaces a conflict's message with its own.
    res.status(409).json({ type: "conflict", ...spoken(paymentBusyMessage("capture")) })
    return
  }
  if (failure) {
    throw failure.error
  }
  if (result.status === "refused" || result.status === "in_doubt") {
    throw new MerchantError(MedusaError.Types.NOT_ALLOWED, result.said ?? said("capture_not_made"))
  }
  res.json({ capture: result })
})
