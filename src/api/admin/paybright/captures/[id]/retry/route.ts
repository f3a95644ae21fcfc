import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { retryCapture } from "../../../../../../capture/capture-fulfillment"

/** POST /admin/paybright/captures/:id/retry: runs a failed capture again. */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const outcome = await retryCapture(req.scope, req.params.id)
  if (outcome.status === "failed") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, outcome.message)
  }
  res.json({ capture: outcome })
}
