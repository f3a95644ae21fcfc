import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { toMoneyRecord } from "../../../../../../lib/money-record-view"
import { retryVoidWorkflow } from "../../../../../../workflows/retry-void"
import { MerchantError } from "../../../../../../lib/merchant-error"
import { isSaid, said } from "../../../../../../lib/texts/said"
import { answeringSentences } from "../../../merchant-errors"

/**
 * POST /admin/paybright/voids/:id/retry: a new attempt at voiding a contract at the lender after a
 * refusal. Answers the new record; 400 with the merchant's message unless it is done.
 */
export const POST = answeringSentences(async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const { result } = await retryVoidWorkflow(req.scope).run({ input: { record_id: req.params.id } })
  if (result.state !== "done") {
    throw new MerchantError(
      MedusaError.Types.NOT_ALLOWED,
      isSaid(result.said) ? result.said : said("contract_not_voided")
    )
  }
  res.json({ record: toMoneyRecord(result) })
})
