import type { AuthenticatedMedusaRequest } from "@medusajs/framework/http"
import { SETTINGS_POLICY } from "../../../../policies/paybright"
import { protectedChanges } from "../../../../lib/protected-settings"
import { settingsViewOf } from "../../../../views/settings-admin"
import type { PayBrightSettingsUpdate } from "../../../../lib/admin-types"
import { requirePolicies } from "../require-policies"

/**
 * A save (or its check) that changes where the money goes needs `paybright_settings:update`
 * besides the `payment:update` every write needs; checked before anything is tried with the new
 * values, so no one without it can even test a key.
 */
export async function requireRightsForSave(
  req: AuthenticatedMedusaRequest,
  providerId: string,
  update: PayBrightSettingsUpdate
): Promise<void> {
  const view = await settingsViewOf(req.scope, providerId)
  if (view && protectedChanges(view.values, update).length > 0) {
    await requirePolicies(req, [SETTINGS_POLICY])
  }
}
