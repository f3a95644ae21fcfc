import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { forgetProviderSettings } from "../../../../../lib/effective-settings"
import { prepareSettingsSave, settingsViewOf } from "../../../../../views/settings-admin"
import type { PayBrightSettingsRejection, PayBrightSettingsSaved } from "../../../../../lib/admin-types"
import { savePayBrightSettingsWorkflow } from "../../../../../workflows/save-paybright-settings"
import { requireRightsForSave } from "../rights"
import type { SaveSettingsBody } from "../../validators"

/**
 * POST /admin/paybright/settings/:provider_id: checks the settings (options schema, then the
 * credentials against the lender) and saves them with an audit row; 400 names each wrong field.
 */
export const POST = async (
  req: AuthenticatedMedusaRequest<SaveSettingsBody>,
  res: MedusaResponse<PayBrightSettingsSaved | PayBrightSettingsRejection>
) => {
  const providerId = req.params.provider_id
  await requireRightsForSave(req, providerId, req.validatedBody)
  const prepared = await prepareSettingsSave(req.scope, providerId, req.validatedBody)
  if (!prepared.ok) {
    res.status(prepared.status).json(prepared.rejection)
    return
  }
  await savePayBrightSettingsWorkflow(req.scope).run({
    input: {
      provider_id: providerId,
      overrides: prepared.overrides,
      encrypted_secrets: prepared.encrypted_secrets,
      changed: prepared.changed,
      actor: req.auth_context.actor_id,
    },
  })
  // This process sees the new version at once; the others within seconds.
  forgetProviderSettings(providerId)
  const settings = (await settingsViewOf(req.scope, providerId))!
  res.setHeader("Cache-Control", "no-store")
  res.json({ settings, credentials: prepared.credentials })
}
