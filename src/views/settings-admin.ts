import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { settingsStateOf, configuredOptionsById } from "../lib/provider-registry"
import { checkStripeKey } from "../lib/stripe"
import { LenderAuthError, LenderError } from "../lenders/errors"
import { pluginRecords } from "../lib/plugin-records"
import { settingsUnreadableFacts, settingsUnreadableMessage } from "../lib/settings-messages"
import { optionIssues, optionsSchema, parseOptions, type PayBrightOptions } from "../lib/options"
import type {
  PayBrightSettingsFacts,
  PayBrightSettingsIssue,
  PayBrightSettingsRejection,
  PayBrightSettingsUpdate,
  PayBrightSettingsView,
} from "../lib/admin-types"
import {
  applyOverrides,
  formFieldOf,
  OPTIONAL_FIELDS,
  PLAIN_FIELDS,
  SECRET_FIELDS,
  settingsView,
} from "../lib/editable-settings"
import { decryptOverrides, secretContext } from "../lib/effective-settings"
import { clientsFor } from "../lib/provider-clients"
import { leaseProblem } from "../lib/lock-lease"
import { SecretBox, SETTINGS_KEY_ENV } from "../lib/secret-box"
import type { StoredSettings } from "../lib/stored-settings"
import { acceptedLately } from "./accepted-lately"

type StoredRow = StoredSettings & { id: string; updated_at: Date | string; updated_by: string | null }

function configOf(scope: MedusaContainer) {
  return configuredOptionsById(scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as ConfigModule)
}

async function storedRow(scope: MedusaContainer, providerId: string): Promise<StoredRow | undefined> {
  const module = pluginRecords(scope)
  const [row] = await module.listPayBrightSettings({ provider_id: providerId })
  return row as unknown as StoredRow | undefined
}

function unavailableReason() {
  const found = SecretBox.fromEnvironment()
  return "unavailable" in found ? { message: found.unavailable, facts: found.facts } : null
}

/**
 * The settings page's view of every PayBright provider registration, secrets masked. Where this
 * process cannot use what was saved, the view says why, and shows the saved values it can read.
 */
export async function listSettingsViews(scope: MedusaContainer): Promise<PayBrightSettingsView[]> {
  const views: PayBrightSettingsView[] = []
  for (const [providerId, config] of configOf(scope)) views.push(await viewOf(scope, providerId, config))
  return views
}

/** One registration's view (listSettingsViews), for a save or its rights: the others are not built. */
export async function settingsViewOf(
  scope: MedusaContainer,
  providerId: string
): Promise<PayBrightSettingsView | undefined> {
  const config = configOf(scope).get(providerId)
  return config ? viewOf(scope, providerId, config) : undefined
}

async function viewOf(
  scope: MedusaContainer,
  providerId: string,
  config: Record<string, unknown>
): Promise<PayBrightSettingsView> {
  const state = await settingsStateOf(scope, providerId)
  const row = await storedRow(scope, providerId)
  const unreadable =
    state && "unreadable" in state
      ? { message: settingsUnreadableMessage(state.unreadable), facts: settingsUnreadableFacts(state.unreadable) }
      : null
  return settingsView({
    providerId,
    config,
    options: state && "provider" in state ? state.provider.options : savedPlainOptions(config, row),
    stored: row && {
      ...row,
      updated_at: new Date(row.updated_at).toISOString(),
      updated_by: await userName(scope, row.updated_by),
    },
    secretsUnavailable: unavailableReason(),
    unreadable,
  })
}

/** What was saved, without its secrets, over medusa-config.ts: shown, never run on. */
function savedPlainOptions(config: Record<string, unknown>, row: StoredRow | undefined): PayBrightOptions {
  try {
    return parseOptions(applyOverrides(config, { overrides: row?.overrides ?? {}, secrets: {} }))
  } catch {
    return parseOptions(config)
  }
}

/** Who saved, as the admin knows them: their email, else the user id. */
async function userName(scope: MedusaContainer, userId: string | null): Promise<string | null> {
  if (!userId) return null
  const [user] = await scope.resolve(Modules.USER).listUsers({ id: userId }, { select: ["email"] })
  return user?.email ?? userId
}

export type PreparedSave =
  | { ok: false; status: number; rejection: PayBrightSettingsRejection }
  | {
      ok: true
      options: PayBrightOptions
      overrides: Record<string, unknown>
      encrypted_secrets: Record<string, string>
      changed: string[]
      credentials: { checked: boolean; message: string } & PayBrightSettingsFacts
    }

/** One problem of a save: beside its form field (null: the whole form), its facts, its English. */
const issue = (
  field: PayBrightSettingsIssue["field"],
  code: PayBrightSettingsIssue["code"],
  message: string,
  values: PayBrightSettingsIssue["values"] = {}
): PayBrightSettingsIssue => ({ field, code, values, message })

/** Each form field's first problem, in English. */
function firstByField(issues: PayBrightSettingsIssue[]): PayBrightSettingsRejection["fields"] {
  const fields: PayBrightSettingsRejection["fields"] = {}
  for (const { field, message } of issues) if (field && !fields[field]) fields[field] = message
  return fields
}

/** A refusal: `message` says it all in English, `fields` each field's first problem, `issues` every one as facts. */
const reject = (message: string, issues: PayBrightSettingsIssue[] = [], status = 400): PreparedSave => ({
  ok: false,
  status,
  rejection: { type: "invalid_data", message, fields: firstByField(issues), issues },
})

/**
 * Checks a save from the settings page before anything is stored: the same options schema as
 * medusa-config.ts, then the credentials against the lender. Answers what to store (secrets
 * encrypted) and which settings changed, or a rejection naming each field.
 */
export async function prepareSettingsSave(
  scope: MedusaContainer,
  providerId: string,
  update: PayBrightSettingsUpdate
): Promise<PreparedSave> {
  const config = configOf(scope).get(providerId)
  if (!config) {
    const message = `There is no PayBright provider ${providerId} in this store's configuration.`
    return reject(message, [issue(null, "unknown_provider", message, { provider: providerId })], 404)
  }
  const before = await settingsStateOf(scope, providerId)
  const row = await storedRow(scope, providerId)
  let saved = { overrides: {} as Record<string, unknown>, secrets: {} as Record<string, string> }
  if (row) {
    try {
      const opened = decryptOverrides(providerId, row)
      saved = { overrides: { ...opened.overrides }, secrets: { ...opened.secrets } }
    } catch (error) {
      // A saved secret this process cannot open is entered again, never dropped for medusa-config.ts's.
      const reason = (error as Error).message
      const unopened = SECRET_FIELDS.filter((name) => row.encrypted_secrets[name] && !(update[name] ?? "").trim())
      if (unopened.length > 0) {
        const message = `must be entered again: ${reason}`
        return reject(
          `Not saved: ${unopened.join(" and ")} ${message}.`,
          unopened.map((name) => issue(name, "secret_reentry", message, { variable: SETTINGS_KEY_ENV }))
        )
      }
      saved = { overrides: { ...row.overrides }, secrets: {} }
    }
  }

  const overrides = { ...saved.overrides }
  for (const field of PLAIN_FIELDS) {
    if (!(field in update)) continue
    const value = update[field]
    // A blank optional field means none (no limit, no estimate); any other blank field is checked (and refused) as given.
    const blank =
      (OPTIONAL_FIELDS as readonly string[]).includes(field) && typeof value === "string" && value.trim() === ""
    overrides[field] = blank ? null : value
  }
  const newSecrets = SECRET_FIELDS.filter((name) => (update[name] ?? "").trim() !== "")
  const found = SecretBox.fromEnvironment()
  if (newSecrets.length > 0 && "unavailable" in found) {
    return reject(
      found.unavailable,
      newSecrets.map((name) => issue(name, found.facts.code, found.unavailable, found.facts.values))
    )
  }
  const secrets = { ...saved.secrets }
  for (const name of newSecrets) secrets[name] = update[name]!.trim()

  const parsed = optionsSchema.safeParse(applyOverrides(config, { overrides, secrets }))
  if (!parsed.success) {
    const issues = optionIssues(parsed.error).map(({ option, message, code, values }) =>
      issue(formFieldOf(option) ?? null, code, message, { option, ...values })
    )
    const named = Object.entries(firstByField(issues)).map(([field, message]) => `${field} ${message}`)
    return reject(`Not saved: ${named.length ? named.join("; ") : "the settings are not valid"}.`, issues)
  }
  const options = parsed.data
  const lease = leaseProblem(options)
  if (lease) {
    const field = formFieldOf(lease.option)
    return reject(`Not saved: ${lease.option} ${lease.message}.`, [
      issue(field ?? null, "lease_too_short", lease.message, { option: lease.option, ...lease.values }),
    ])
  }

  // A new Stripe key, or Stripe newly chosen, is tried before it is stored: a key Stripe refuses is never saved.
  const stripe = options.cardProcessor?.type === "stripe" ? options.cardProcessor.options : undefined
  const wasStripe = before && "provider" in before && before.provider.options.cardProcessor?.type === "stripe"
  if (stripe && (newSecrets.includes("cardProcessorSecretKey") || !wasStripe)) {
    const checked = await acceptedLately(["stripe", stripe], () => checkStripeKey(stripe))
    if (!checked.accepted) {
      const code = checked.refusal === "refused" ? "stripe_refused" : "stripe_unchecked"
      return reject(`Not saved: ${checked.message}`, [issue("cardProcessorSecretKey", code, checked.message)])
    }
  }

  const credentials = await acceptedLately(["lender", options.apiUrl, options.apiKey, options.apiToken], () =>
    testCredentials(options)
  )
  if (!credentials.accepted) {
    if (credentials.fact) {
      scope
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(`PayBright settings for ${providerId} not saved: the credentials check found ${credentials.fact}`)
    }
    return reject(`Not saved: ${credentials.message}`, [
      issue(credentials.field ?? null, credentials.code, credentials.message, credentials.values),
    ])
  }

  const encrypted: Record<string, string> = {}
  for (const name of SECRET_FIELDS) {
    if (!secrets[name]) continue
    const box = "box" in found ? found.box : undefined
    // Unchanged secrets are re-sealed only when there is a key; otherwise none were stored.
    if (box) encrypted[name] = box.encrypt(secrets[name], secretContext(providerId, name))
  }
  const changed = [
    ...PLAIN_FIELDS.filter(
      (field) =>
        before &&
        "provider" in before &&
        JSON.stringify(valueOf(before.provider.options, field)) !== JSON.stringify(valueOf(options, field))
    ),
    ...newSecrets.map((name) => `${name} (replaced)`),
  ]
  return {
    ok: true,
    options,
    overrides,
    encrypted_secrets: encrypted,
    changed,
    credentials: { checked: true, message: credentials.message, code: credentials.code, values: credentials.values },
  }
}

function valueOf(options: PayBrightOptions, field: (typeof PLAIN_FIELDS)[number]) {
  return field === "cardProcessorType" ? (options.cardProcessor?.type ?? "none") : (options[field] ?? null)
}

/**
 * The credentials test: the lender's own check (for PayBright, the virtual card of a contract that
 * cannot exist), which reads nothing and changes nothing at the lender. A lender that cannot be
 * reached is reported, and nothing is saved.
 */
export async function testCredentials(options: PayBrightOptions): Promise<
  PayBrightSettingsFacts & {
    code: "credentials_accepted" | "credentials_refused" | "credentials_unanswered"
    accepted: boolean
    message: string
    field?: "apiToken"
    fact?: string
  }
> {
  const { lender } = clientsFor({ ...options, timeoutMs: Math.min(options.timeoutMs, 10_000) })
  // The merchant reads which PayBright answered in their words; the host and the status go to the log.
  const where = `PayBright (${options.environment})`
  const values = { environment: options.environment }
  const accepted = { accepted: true, code: "credentials_accepted" as const, values }
  try {
    await lender.checkCredentials()
    return { ...accepted, message: `${where} accepted the API key and token.` }
  } catch (error) {
    if (error instanceof LenderAuthError) {
      return {
        accepted: false,
        code: "credentials_refused",
        values,
        field: "apiToken",
        message: `${where} did not accept this API key and token; check both in the PayBright portal.`,
        fact: `${options.apiUrl} answered ${error.status}`,
      }
    }
    const said = error instanceof LenderError ? error.message : String(error)
    return {
      accepted: false,
      code: "credentials_unanswered",
      values,
      message: `the credentials could not be checked: ${where} did not answer; try again in a moment.`,
      fact: `${options.apiUrl}: ${said}`,
    }
  }
}
