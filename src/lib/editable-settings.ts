import type {
  PayBrightSecretName,
  PayBrightSettingsFacts,
  PayBrightSettingsFields,
  PayBrightSettingsUpdate,
  PayBrightSettingsView,
} from "./admin-types"
import type { PayBrightOptions } from "./options"
import type { StoredSettings } from "./stored-settings"

/** Fields a merchant may leave blank, meaning "none" (no limit, no estimate, no widget). */
export const OPTIONAL_FIELDS = [
  "minOrderAmount",
  "maxOrderAmount",
  "financingMonths",
  "financingApr",
  "financingSetupFee",
  "financingMonthlyFee",
  "financingMinAmount",
  "promotionalWidgetKey",
] as const satisfies readonly (keyof PayBrightSettingsFields)[]

/** Options the admin may override, without secrets: they are stored as given in `overrides`. */
export const PLAIN_FIELDS = [
  "environment",
  "apiKey",
  "captureMode",
  "captureOn",
  "cardProcessorType",
  "shopName",
  "currencies",
  ...OPTIONAL_FIELDS,
] as const satisfies readonly (keyof PayBrightSettingsFields)[]

export const SECRET_FIELDS = ["apiToken", "cardProcessorSecretKey"] as const satisfies readonly PayBrightSecretName[]

/** What the merchant saved, with the secrets decrypted (server-side only). */
export type SettingsOverrides = {
  overrides: Partial<PayBrightSettingsFields>
  secrets: Partial<Record<PayBrightSecretName, string>>
}

/**
 * medusa-config.ts's options with the admin's overrides applied: the input the options schema
 * parses, so a saved setting is checked exactly as a configured one is.
 */
export function applyOverrides(
  config: Record<string, unknown>,
  { overrides, secrets }: SettingsOverrides
): Record<string, unknown> {
  const raw: Record<string, unknown> = { ...config }
  for (const field of PLAIN_FIELDS) {
    if (field === "cardProcessorType" || !(field in overrides)) continue
    const value = overrides[field]
    if (value === null || value === undefined) delete raw[field]
    else raw[field] = value
  }
  if (secrets.apiToken) raw.apiToken = secrets.apiToken

  const configured = config.cardProcessor as { type?: string; options?: Record<string, unknown> } | undefined
  const type = overrides.cardProcessorType ?? configured?.type ?? "none"
  if (type === "none") delete raw.cardProcessor
  else if (type === "manual") raw.cardProcessor = { type: "manual" }
  else if (type === "stripe") {
    // Connection settings (host, port) stay as configured; the admin sets the key.
    const options = configured?.type === "stripe" ? { ...configured.options } : {}
    if (secrets.cardProcessorSecretKey) options.secretKey = secrets.cardProcessorSecretKey
    raw.cardProcessor = { type: "stripe", options }
  }
  return raw
}

/** The form field an option's problem belongs to (`cardProcessor.options.secretKey` → its secret). */
export function formFieldOf(option: string): keyof PayBrightSettingsUpdate | undefined {
  if (option.startsWith("cardProcessor.options.secretKey")) return "cardProcessorSecretKey"
  if (option.startsWith("cardProcessor")) return "cardProcessorType"
  const head = option.split(".")[0]
  const fields: readonly string[] = [...PLAIN_FIELDS, ...SECRET_FIELDS]
  return fields.includes(head) ? (head as keyof PayBrightSettingsUpdate) : undefined
}

type Said = { message: string; facts: PayBrightSettingsFacts }

/** The settings as the browser may see them: effective values, secrets only as "set" or not. */
export function settingsView(input: {
  providerId: string
  config: Record<string, unknown>
  options: PayBrightOptions
  stored: (StoredSettings & { updated_at?: string | null; updated_by?: string | null }) | undefined
  /** Why the settings page cannot save secrets, or the server cannot use what was saved: in English and as facts. */
  secretsUnavailable: Said | null
  unreadable: Said | null
}): PayBrightSettingsView {
  const { options, stored, config } = input
  const overrides = (stored?.overrides ?? {}) as Partial<PayBrightSettingsFields>
  const sealed = stored?.encrypted_secrets ?? {}
  const configuredStripeKey = (config.cardProcessor as { options?: { secretKey?: string } } | undefined)?.options
    ?.secretKey
  const secretState = (name: PayBrightSecretName, configured: unknown) =>
    sealed[name]
      ? { set: true, source: "admin" as const }
      : configured
        ? { set: true, source: "config" as const }
        : { set: false, source: "none" as const }
  return {
    provider_id: input.providerId,
    values: {
      environment: options.environment,
      apiKey: options.apiKey,
      captureMode: options.captureMode,
      captureOn: options.captureOn,
      cardProcessorType: options.cardProcessor?.type ?? "none",
      shopName: options.shopName,
      currencies: options.currencies,
      minOrderAmount: options.minOrderAmount ?? null,
      maxOrderAmount: options.maxOrderAmount ?? null,
      financingMonths: options.financingMonths ?? null,
      financingApr: options.financingApr ?? null,
      financingSetupFee: options.financingSetupFee ?? null,
      financingMonthlyFee: options.financingMonthlyFee ?? null,
      financingMinAmount: options.financingMinAmount ?? null,
      promotionalWidgetKey: options.promotionalWidgetKey ?? null,
    },
    secrets: {
      apiToken: secretState("apiToken", config.apiToken),
      cardProcessorSecretKey: secretState("cardProcessorSecretKey", configuredStripeKey),
    },
    overridden: PLAIN_FIELDS.filter((field) => field in overrides),
    version: stored?.version ?? 0,
    updated_at: stored?.updated_at ?? null,
    updated_by: stored?.updated_by ?? null,
    secrets_unavailable: input.secretsUnavailable?.message ?? null,
    secrets_unavailable_facts: input.secretsUnavailable?.facts ?? null,
    unreadable: input.unreadable?.message ?? null,
    unreadable_facts: input.unreadable?.facts ?? null,
  }
}
