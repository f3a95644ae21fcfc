import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { createCardProcessor } from "../card-processors"
import { LenderClient } from "../lender/client"
import { parseOptions, type PayBrightOptions } from "../providers/paybright/options"
import { InStoreSettlement } from "../providers/paybright/settlement/in-store"
import type { Settlement } from "../providers/paybright/settlement/types"
import { VirtualCardSettlement } from "../providers/paybright/settlement/virtual-card"
import { applyOverrides, SECRET_FIELDS, type SettingsOverrides } from "./editable-settings"
import { SecretBox } from "./secret-box"
import { readSettingsVersion, readStoredSettings, type StoredSettings } from "./stored-settings"

/**
 * How long a process trusts the settings version it last read. Every server and worker process
 * reads the version from the database at most this often, so a save in the admin reaches them
 * all within this time, and a busy checkout does not query the database on every call.
 */
export const SETTINGS_RECHECK_MS = 2_000

/** A PayBright provider as it runs now: its effective options, and the clients built on them. */
export type EffectiveProvider = {
  providerId: string
  /** medusa-config.ts's options with what the admin saved on top. Holds secrets: server-side only. */
  options: PayBrightOptions
  lender: LenderClient
  settlement: Settlement
  /** The settings version these were built from (0: nothing saved in the admin). */
  version: number
  /** medusa-config.ts's own options, under the admin's: payments authorized under them still move through them. */
  configured?: PayBrightOptions
}

export type SettingsLogger = { error(message: string): void }

type Entry = { configKey: string; version: number; checkedAt: number; provider: EffectiveProvider }
const current = new Map<string, Entry>()
/** Providers whose saved settings could not be read, reported once per process. */
const unreadable = new Set<string>()

/**
 * The one answer to "which settings, lender client and settlement does this PayBright provider
 * use now": medusa-config.ts's options are the defaults, the admin's saved settings override them.
 * Built once per settings version; the version is read from the database at most every
 * SETTINGS_RECHECK_MS. If what was saved cannot be used (the key to decrypt a secret is gone),
 * the configured options are used and the reason is logged.
 */
export async function effectiveProvider(input: {
  pg: Knex
  providerId: string
  /** The provider's options as written in medusa-config.ts. */
  config: Record<string, unknown>
  logger?: SettingsLogger
  now?: number
}): Promise<EffectiveProvider> {
  const { pg, providerId, config, logger = console } = input
  const now = input.now ?? Date.now()
  const configKey = JSON.stringify(config)
  const known = current.get(providerId)
  if (known && known.configKey === configKey && now - known.checkedAt < SETTINGS_RECHECK_MS) {
    return known.provider
  }
  const version = await readSettingsVersion(pg, providerId).catch((error: Error) => {
    // A store that has not run the plugin's migrations yet has no settings table: use the config.
    if (!unreadable.has(providerId)) {
      unreadable.add(providerId)
      logger.error(
        `PayBright: could not read the settings saved in the admin (${error.message}); using medusa-config.ts`
      )
    }
    return 0
  })
  if (known && known.configKey === configKey && known.version === version) {
    known.checkedAt = now
    return known.provider
  }
  const stored = version > 0 ? await readStoredSettings(pg, providerId) : undefined
  const provider = buildProvider(providerId, config, stored, logger)
  current.set(providerId, { configKey, version: provider.version, checkedAt: now, provider })
  return provider
}

/** Forgets what this process built, so its next call reads the database (after a save here). */
export function forgetEffectiveProvider(providerId: string) {
  current.delete(providerId)
}

function buildProvider(
  providerId: string,
  config: Record<string, unknown>,
  stored: StoredSettings | undefined,
  logger: SettingsLogger
): EffectiveProvider {
  const configured = parseOptions(config)
  let options = configured
  if (stored) {
    try {
      options = parseOptions(applyOverrides(config, decryptOverrides(providerId, stored)))
    } catch (error) {
      logger.error(
        `PayBright: the settings saved in the admin for ${providerId} cannot be used (${(error as Error).message}); using medusa-config.ts until they are saved again`
      )
    }
  }
  // A version that cannot be used is remembered too, so it is reported once, not at every check.
  return { providerId, options, configured, version: stored?.version ?? 0, ...clientsFor(options) }
}

/** The lender client and settlement for a set of options. */
export function clientsFor(options: PayBrightOptions): { lender: LenderClient; settlement: Settlement } {
  const lender = new LenderClient({
    apiUrl: options.apiUrl,
    checkoutUrl: options.checkoutUrl,
    apiKey: options.apiKey,
    apiToken: options.apiToken,
    timeoutMs: options.timeoutMs,
  })
  const settlement =
    options.captureMode === "virtual_card"
      ? new VirtualCardSettlement(lender, createCardProcessor(options.cardProcessor!))
      : new InStoreSettlement(lender, options.apiKey)
  return { lender, settlement }
}

/** The saved overrides with their secrets decrypted; throws when the key cannot open them. */
export function decryptOverrides(providerId: string, stored: StoredSettings): SettingsOverrides {
  const secrets: SettingsOverrides["secrets"] = {}
  const sealedNames = SECRET_FIELDS.filter((name) => stored.encrypted_secrets[name])
  if (sealedNames.length > 0) {
    const found = SecretBox.fromEnvironment()
    if ("unavailable" in found) {
      throw new Error(found.unavailable)
    }
    for (const name of sealedNames) {
      try {
        secrets[name] = found.box.decrypt(stored.encrypted_secrets[name], secretContext(providerId, name))
      } catch {
        throw new Error(`the saved ${name} does not decrypt with this PAYBRIGHT_SETTINGS_KEY`)
      }
    }
  }
  return { overrides: stored.overrides as SettingsOverrides["overrides"], secrets }
}

/** What a secret's encryption is bound to: the provider and the option. */
export function secretContext(providerId: string, name: string) {
  return `${providerId}:${name}`
}
