import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { optionsSchema, parseOptions, type PayBrightOptions } from "../providers/paybright/options"

type ProviderEntry = { resolve?: unknown; id?: string; options?: Record<string, unknown> }

/**
 * The options of the PayBright provider registered as `providerId` (pp_paybright_<id>), read from
 * the store's own configuration: routes and workflows run outside the payment module and cannot
 * reach the provider instance. Holds the API token: keep it server-side.
 */
export function registeredProviderOptions(scope: MedusaContainer, providerId: string): PayBrightOptions | undefined {
  const entry = providerEntries(scope).find(
    (candidate) => `pp_paybright_${candidate.id}` === providerId && candidate.options
  )
  return entry ? parseOptions(entry.options) : undefined
}

/**
 * Every PayBright provider the store registers (pp_paybright_<id>), with its options: the
 * entries whose options are PayBright's (other providers' options do not parse as such).
 */
export function payBrightRegistrations(scope: MedusaContainer): { providerId: string; options: PayBrightOptions }[] {
  return providerEntries(scope).flatMap((entry) => {
    const parsed = entry.id ? optionsSchema.safeParse(entry.options ?? {}) : undefined
    return parsed?.success ? [{ providerId: `pp_paybright_${entry.id}`, options: parsed.data }] : []
  })
}

function providerEntries(scope: MedusaContainer): ProviderEntry[] {
  const config = scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as ConfigModule
  return Object.values(config.modules ?? {}).flatMap((module) =>
    typeof module === "object"
      ? ((module as { options?: { providers?: ProviderEntry[] } }).options?.providers ?? [])
      : []
  )
}

/** The same options without the secret, for building storefront URLs. */
export function providerSettings(
  scope: MedusaContainer,
  providerId: string
): Omit<PayBrightOptions, "apiToken"> | undefined {
  const options = registeredProviderOptions(scope, providerId)
  if (!options) {
    return undefined
  }
  const { apiToken: _secret, ...settings } = options
  return settings
}
