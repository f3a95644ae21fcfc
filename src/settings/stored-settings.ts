import type { Knex } from "@medusajs/framework/mikro-orm/knex"

/** The table of the PayBrightSettings model (src/modules/paybright/models/paybright-settings.ts). */
const TABLE = "paybright_settings"

export type StoredSettings = {
  version: number
  overrides: Record<string, unknown>
  encrypted_secrets: Record<string, string>
}

/**
 * Reads what the admin saved for a provider straight from the store's database, through the
 * connection every Medusa container holds: the payment provider runs in the payment module's
 * container, which cannot resolve the plugin's module. Writes go through the module (a workflow).
 */
export async function readSettingsVersion(pg: Knex, providerId: string): Promise<number> {
  const row = await pg(TABLE).select("version").where({ provider_id: providerId, deleted_at: null }).first()
  return row ? Number(row.version) : 0
}

export async function readStoredSettings(pg: Knex, providerId: string): Promise<StoredSettings | undefined> {
  const row = await pg(TABLE)
    .select("version", "overrides", "encrypted_secrets")
    .where({ provider_id: providerId, deleted_at: null })
    .first()
  return row
    ? { version: Number(row.version), overrides: row.overrides ?? {}, encrypted_secrets: row.encrypted_secrets ?? {} }
    : undefined
}
