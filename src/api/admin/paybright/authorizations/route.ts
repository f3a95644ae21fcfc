import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { listOpenAuthorizations } from "../../../../lib/authorization-expiry"

/**
 * GET /admin/paybright/authorizations: PayBright authorizations with an amount not yet captured,
 * oldest first, each with the date the lender cancels it and whether that is near.
 */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  res.json({ authorizations: await listOpenAuthorizations(req.scope) })
}
