import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { handleApplicationResult } from "../../../checkout/handle-application-result"

/**
 * POST /paybright/callback: the lender's server-to-server result (x_url_callback). 200 tells the
 * lender the result is settled here (placed, declined, or being placed); anything else makes it
 * deliver the result again.
 */
export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const outcome = await handleApplicationResult(req.scope, req.body, (req as { rawBody?: Buffer }).rawBody)
  if (outcome.kind === "rejected") {
    res.status(outcome.status).json({ message: outcome.reason })
    return
  }
  if (outcome.kind === "not_placed") {
    // The approval is recorded; a later delivery retries the completion.
    res.status(409).json({ message: outcome.reason })
    return
  }
  res.status(200).json({ result: outcome.kind })
}
