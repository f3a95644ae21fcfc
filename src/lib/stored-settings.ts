import type { PayBrightRecordsReader } from "../modules/paybright/records"

export type StoredSettings = {
  version: number
  overrides: Record<string, unknown>
  encrypted_secrets: Record<string, string>
}

/** Where saved settings are read: the plugin's module service, from whichever container holds it. */
export type SettingsRows = Pick<PayBrightRecordsReader, "listPayBrightSettings">

/**
 * Reads what the admin saved for a provider through the plugin's module (the provider, which runs
 * in the payment module's container, reaches it through the application's). Writes go through the
 * module too, in a workflow.
 */
export async function readSettingsVersion(rows: SettingsRows, providerId: string): Promise<number> {
  const [row] = (await rows.listPayBrightSettings({ provider_id: providerId }, { select: ["version"] })) as {
    version: number
  }[]
  return row ? Number(row.version) : 0
}

export async function readStoredSettings(rows: SettingsRows, providerId: string): Promise<StoredSettings | undefined> {
  const [row] = (await rows.listPayBrightSettings(
    { provider_id: providerId },
    { select: ["version", "overrides", "encrypted_secrets"] }
  )) as {
    version: number
    overrides: Record<string, unknown> | null
    encrypted_secrets: Record<string, string> | null
  }[]
  return row
    ? { version: Number(row.version), overrides: row.overrides ?? {}, encrypted_secrets: row.encrypted_secrets ?? {} }
    : undefined
}
