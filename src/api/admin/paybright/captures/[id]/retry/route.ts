import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { capturePaymentOnceWorkflow } from "../../../../../../workflows/capture/workflows/capture-payment-once"

/** POST /admin/paybright/captures/:id/retry: a new attempt of a refused capture (never of one in doubt). */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const { result } = await capturePaymentOnceWorkflow(req.scope).run({ input: { retry_record_id: req.params.id } })
  if (result.status === "refused" || result.status === "in_doubt") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, result.message ?? "The capture was not made")
  }
  res.json({ capture: result })
}
