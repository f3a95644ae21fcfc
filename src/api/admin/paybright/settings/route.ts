import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { listSettingsViews } from "../../../../settings/settings-admin"
import type { PayBrightSettingsResponse } from "../../../../types/admin"

/** GET /admin/paybright/settings: each PayBright provider's settings, secrets masked. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<PayBrightSettingsResponse>) => {
  res.setHeader("Cache-Control", "no-store")
  res.json({ settings: await listSettingsViews(req.scope) })
}
