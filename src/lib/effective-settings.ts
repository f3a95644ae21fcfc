import { parseOptions, type PayBrightOptions } from "./options"
import { applyOverrides, SECRET_FIELDS, type SettingsOverrides } from "./editable-settings"
import { settingsKeyFact, type UnreadableSettingsFacts } from "./settings-messages"
import { english, type Said } from "./texts/said"
import { MIN_KEY_LENGTH, SecretBox } from "./secret-box"
import { readSettingsVersion, readStoredSettings, type SettingsRows, type StoredSettings } from "./stored-settings"
import { reportUnreadableSettings, SettingsUnreadableError } from "./unreadable-settings"

/**
 * How long a process trusts the settings version it last read. Every server and worker process
 * reads the version from the database at most this often, so a save in the admin reaches them
 * all within this time, and a busy checkout does not query the database on every call.
 */
export const SETTINGS_RECHECK_MS = 2_000

/**
 * A PayBright provider's settings as they stand now. One object per settings version: what is
 * built on them (the lender client, the channel's mover: src/lib/provider-clients.ts) is built
 * once per object.
 */
export type ProviderSettings = {
  providerId: string
  /** medusa-config.ts's options with what the admin saved on top. Holds secrets: server-side only. */
  options: PayBrightOptions
  /** The settings version these were built from (0: nothing saved in the admin). */
  version: number
  /** medusa-config.ts's own options, under the admin's: payments authorized under them still move through them. */
  configured?: PayBrightOptions
}

export type SettingsLogger = { error(message: string): void }

/** A provider's settings as this process can use them, or why it cannot. */
export type SettingsState = { provider: ProviderSettings } | { unreadable: UnreadableSettingsFacts }

type Entry = { configKey: string; version: number; checkedAt: number; state: SettingsState }
const current = new Map<string, Entry>()
/** Providers whose settings table could not be found, reported once per process. */
const noTable = new Set<string>()

/** PostgreSQL's "undefined_table": the plugin's migrations have not run, so nothing was saved. */
const UNDEFINED_TABLE = "42P01"

/**
 * The one answer to "which settings, lender client and mover does this PayBright provider
 * use now": medusa-config.ts's options are the defaults, the admin's saved settings override them.
 * Built once per settings version; the version is read from the database at most every
 * SETTINGS_RECHECK_MS. Saved settings this process cannot use (a secret that does not open with
 * its PAYBRIGHT_SETTINGS_KEY, values that no longer fit medusa-config.ts) stop PayBright here:
 * this throws SettingsUnreadableError, and never falls back to medusa-config.ts's options.
 */
export async function effectiveProvider(input: EffectiveInput): Promise<ProviderSettings> {
  const state = await effectiveSettings(input)
  if ("unreadable" in state) {
    throw new SettingsUnreadableError(state.unreadable)
  }
  return state.provider
}

type EffectiveInput = {
  /** The plugin's module, where the admin's saves are kept. */
  rows: SettingsRows
  providerId: string
  /** The provider's options as written in medusa-config.ts. */
  config: Record<string, unknown>
  logger?: SettingsLogger
  now?: number
}

/**
 * effectiveProvider's answer without throwing when the saved settings cannot be used, for the
 * admin, which shows why. Each time the settings are found unusable it is reported (throttled).
 */
export async function effectiveSettings(input: EffectiveInput): Promise<SettingsState> {
  const state = await settingsOf(input)
  if ("unreadable" in state) {
    await reportUnreadableSettings(state.unreadable, input.logger ?? console, input.now)
  }
  return state
}

async function settingsOf(input: EffectiveInput): Promise<SettingsState> {
  const { rows, providerId, config, logger = console } = input
  const now = input.now ?? Date.now()
  const configKey = JSON.stringify(config)
  const known = current.get(providerId)
  if (known && known.configKey === configKey && now - known.checkedAt < SETTINGS_RECHECK_MS) {
    return known.state
  }
  const version = await readSettingsVersion(rows, providerId).catch((error: Error & { code?: string }) => {
    // Any other error (the database is down) fails this call: the saved settings are not known.
    if (error.code !== UNDEFINED_TABLE) throw error
    // A store that has not run the plugin's migrations yet has no settings table: nothing was saved.
    if (!noTable.has(providerId)) {
      noTable.add(providerId)
      logger.error(
        `PayBright: there is no settings table (${error.message}); run the migrations. Using medusa-config.ts`
      )
    }
    return 0
  })
  if (known && known.configKey === configKey && known.version === version) {
    known.checkedAt = now
    return known.state
  }
  const stored = version > 0 ? await readStoredSettings(rows, providerId) : undefined
  // A version that cannot be used is remembered too, and used again only once saved anew.
  const state = buildProvider(providerId, config, stored)
  current.set(providerId, { configKey, version: stored?.version ?? 0, checkedAt: now, state })
  return state
}

/** Forgets what this process built, so its next call reads the database (after a save here). */
export function forgetProviderSettings(providerId: string) {
  current.delete(providerId)
}

function buildProvider(
  providerId: string,
  config: Record<string, unknown>,
  stored: StoredSettings | undefined
): SettingsState {
  const configured = parseOptions(config)
  if (!stored) {
    return { provider: { providerId, options: configured, configured, version: 0 } }
  }
  const unreadable = (cause: UnreadableSettingsFacts["cause"], error: unknown): SettingsState => ({
    unreadable: {
      providerId,
      version: stored.version,
      cause,
      fact: (error as Error).message,
      ...(error instanceof SettingsKeyError ? { fact_said: error.said } : {}),
    },
  })
  let overrides: SettingsOverrides
  try {
    overrides = decryptOverrides(providerId, stored)
  } catch (error) {
    return unreadable("key", error)
  }
  let options: PayBrightOptions
  try {
    options = parseOptions(applyOverrides(config, overrides))
  } catch (error) {
    return unreadable("invalid", error)
  }
  return { provider: { providerId, options, configured, version: stored.version } }
}

/**
 * The saved overrides with their secrets decrypted; throws, saying what is wrong (never a value),
 * when this process's PAYBRIGHT_SETTINGS_KEY cannot open them.
 */
export function decryptOverrides(providerId: string, stored: StoredSettings): SettingsOverrides {
  const secrets: SettingsOverrides["secrets"] = {}
  const sealedNames = SECRET_FIELDS.filter((name) => stored.encrypted_secrets[name])
  if (sealedNames.length > 0) {
    const found = SecretBox.fromEnvironment()
    if ("unavailable" in found) {
      throw new SettingsKeyError(
        settingsKeyFact(found.facts.code === "key_missing" ? "no_key" : "short_key", {
          names: sealedNames.join(" and "),
          length: MIN_KEY_LENGTH,
        })
      )
    }
    for (const name of sealedNames) {
      try {
        secrets[name] = found.box.decrypt(stored.encrypted_secrets[name], secretContext(providerId, name))
      } catch {
        throw new SettingsKeyError(settingsKeyFact("does_not_decrypt", { names: name }))
      }
    }
  }
  return { overrides: stored.overrides as SettingsOverrides["overrides"], secrets }
}

/** What a secret's encryption is bound to: the provider and the option. */
export function secretContext(providerId: string, name: string) {
  return `${providerId}:${name}`
}

/** This process's settings key cannot open the saved secrets: what it found, as a sentence. */
class SettingsKeyError extends Error {
  constructor(readonly said: Said) {
    super(english(said))
  }
}
