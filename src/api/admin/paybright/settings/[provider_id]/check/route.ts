import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { prepareSettingsSave } from "../../../../../../views/settings-admin"
import type { PayBrightSettingsCheck } from "../../../../../../lib/admin-types"
import { requireRightsForSave } from "../../rights"
import type { SaveSettingsBody } from "../../../validators"

/**
 * POST /admin/paybright/settings/:provider_id/check: runs every check of a save (the options
 * schema, the encryption key, the credentials against the lender) and stores nothing. The settings
 * page calls it first to show each problem beside its field; the save runs the same checks again,
 * but takes this check's verdict on credentials this process saw accepted moments ago.
 */
export const POST = async (
  req: AuthenticatedMedusaRequest<SaveSettingsBody>,
  res: MedusaResponse<PayBrightSettingsCheck>
) => {
  await requireRightsForSave(req, req.params.provider_id, req.validatedBody)
  const prepared = await prepareSettingsSave(req.scope, req.params.provider_id, req.validatedBody)
  res.setHeader("Cache-Control", "no-store")
  res.json(
    prepared.ok
      ? { valid: true, message: prepared.credentials.message, fields: {}, issues: [] }
      : {
          valid: false,
          message: prepared.rejection.message,
          fields: prepared.rejection.fields,
          issues: prepared.rejection.issues,
        }
  )
}
