import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { needsAttention } from "../../../../views/needs-attention"
import type { PayBrightAttentionResponse } from "../../../../lib/admin-types"

/** GET /admin/paybright/attention: what a merchant should look at, most urgent first. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<PayBrightAttentionResponse>) => {
  res.json({ items: await needsAttention(req.scope) })
}
