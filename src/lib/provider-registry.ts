import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { ConfigModule, Logger, MedusaContainer } from "@medusajs/framework/types"
import { parseOptions, type PayBrightOptions } from "./options"
import { effectiveSettings, type ProviderSettings, type SettingsState } from "./effective-settings"
import { SettingsUnreadableError } from "./unreadable-settings"
import { PAYBRIGHT_PROVIDER_PREFIX } from "../storefront/provider"
import { pluginRecords } from "./plugin-records"

type ProviderEntry = { resolve?: unknown; id?: string; options?: Record<string, unknown> }

/** Every PayBright provider registration in the store's configuration, by provider id. */
export function configuredOptionsById(config: ConfigModule): Map<string, Record<string, unknown>> {
  const found = new Map<string, Record<string, unknown>>()
  for (const module of Object.values(config.modules ?? {})) {
    const entries =
      typeof module === "object"
        ? ((module as { options?: { providers?: ProviderEntry[] } }).options?.providers ?? [])
        : []
    for (const entry of entries) {
      const resolve = typeof entry.resolve === "string" ? entry.resolve : ""
      if (entry.id && entry.options && /paybright/.test(resolve))
        found.set(`${PAYBRIGHT_PROVIDER_PREFIX}${entry.id}`, entry.options)
    }
  }
  return found
}

/**
 * The PayBright provider registered as `providerId` (pp_paybright_<id>) as it runs now: the
 * store's configuration with what the admin saved on top, its lender client and its channel's mover.
 * Routes, subscribers and workflows run outside the payment module and use this; the provider
 * itself uses the same function. Holds the API token: keep it server-side. Throws
 * SettingsUnreadableError where this process cannot use the saved settings.
 */
export async function settingsInForce(
  scope: MedusaContainer,
  providerId: string
): Promise<ProviderSettings | undefined> {
  const state = await settingsStateOf(scope, providerId)
  if (state && "unreadable" in state) {
    throw new SettingsUnreadableError(state.unreadable)
  }
  return state?.provider
}

/** settingsInForce's answer, or why this process cannot use the saved settings (for the admin). */
export async function settingsStateOf(scope: MedusaContainer, providerId: string): Promise<SettingsState | undefined> {
  const config = configuredOptionsById(scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as ConfigModule).get(
    providerId
  )
  if (!config) {
    return undefined
  }
  return effectiveSettings({
    rows: pluginRecords(scope),
    providerId,
    config,
    logger: scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER),
  })
}

/**
 * Every PayBright provider the store registers, with its effective options: a lender's result
 * names no provider, so it is checked against each registration's key and token.
 */
export async function providersInForce(
  scope: MedusaContainer
): Promise<{ providerId: string; options: PayBrightOptions }[]> {
  const config = configuredOptionsById(scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as ConfigModule)
  const found = await Promise.all(
    [...config.keys()].map(async (providerId) => ({
      providerId,
      provider: await settingsInForce(scope, providerId),
    }))
  )
  return found.flatMap(({ providerId, provider }) => (provider ? [{ providerId, options: provider.options }] : []))
}

/**
 * Each registration's options as medusa-config.ts writes them, without what the admin saved: only
 * for what the admin cannot change (the storefront's URL and paths), where a process that cannot
 * use the saved settings must still send a shopper somewhere.
 */
export function providersAsConfigured(scope: MedusaContainer): { providerId: string; options: PayBrightOptions }[] {
  const config = configuredOptionsById(scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as ConfigModule)
  return [...config].map(([providerId, options]) => ({ providerId, options: parseOptions(options) }))
}
