import type { PayBrightSettingsFields, PayBrightSettingsUpdate } from "./admin-types"

/**
 * Settings that decide where the money goes and in whose name it is asked for: the environment,
 * the API key and token, the card processor and its secret key. Changing any of them needs the
 * `paybright_settings:update` policy; the other settings need only `payment:update`.
 */
export const PROTECTED_FIELDS = ["environment", "apiKey", "cardProcessorType"] as const
export const PROTECTED_SECRETS = ["apiToken", "cardProcessorSecretKey"] as const

/**
 * The protected settings a save would change, compared with what is in force now: the settings
 * page sends every field, so an unchanged value is no change. A secret typed in always is.
 */
export function protectedChanges(current: PayBrightSettingsFields, update: PayBrightSettingsUpdate): string[] {
  return [
    ...PROTECTED_FIELDS.filter(
      (field) => update[field] !== undefined && String(update[field]).trim() !== String(current[field])
    ),
    ...PROTECTED_SECRETS.filter((name) => (update[name] ?? "").trim() !== ""),
  ]
}
