import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { toMoneyRecord } from "../../../../../../money/money-record-view"
import { retryReleaseWorkflow } from "../../../../../../workflows/release/workflows/retry-release"

/**
 * POST /admin/paybright/voids/:id/retry: a new attempt at releasing a contract (voiding it at the
 * lender) after a refusal. Answers the new record; 400 with the merchant's message unless it is done.
 */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const { result } = await retryReleaseWorkflow(req.scope).run({ input: { record_id: req.params.id } })
  if (result.state !== "done") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, result.message ?? "The contract was not released")
  }
  res.json({ record: toMoneyRecord(result) })
}
