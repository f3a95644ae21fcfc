import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { SETTINGS_POLICY } from "../../../../policies/paybright"
import { listSettingsViews } from "../../../../views/settings-admin"
import type { PayBrightSettingsResponse } from "../../../../lib/admin-types"
import { holdsPolicies } from "../require-policies"

/**
 * GET /admin/paybright/settings: each PayBright provider's settings, secrets masked, and whether
 * this user may change the protected ones (the page leaves them read-only otherwise).
 */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<PayBrightSettingsResponse>) => {
  res.setHeader("Cache-Control", "no-store")
  res.json({
    settings: await listSettingsViews(req.scope),
    rights: { protected_settings: await holdsPolicies(req, [SETTINGS_POLICY]) },
  })
}
