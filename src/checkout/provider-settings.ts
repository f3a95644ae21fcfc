import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { parseOptions, type PayBrightOptions } from "../providers/paybright/options"

type ProviderEntry = { resolve?: unknown; id?: string; options?: Record<string, unknown> }

/**
 * The options of the PayBright provider registered as `providerId` (pp_paybright_<id>), read from
 * the store's own configuration: routes and workflows run outside the payment module and cannot
 * reach the provider instance. Holds the API token: keep it server-side.
 */
export function registeredProviderOptions(scope: MedusaContainer, providerId: string): PayBrightOptions | undefined {
  const config = scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as ConfigModule
  for (const module of Object.values(config.modules ?? {})) {
    const entries =
      typeof module === "object"
        ? ((module as { options?: { providers?: ProviderEntry[] } }).options?.providers ?? [])
        : []
    const entry = entries.find((candidate) => `pp_paybright_${candidate.id}` === providerId && candidate.options)
    if (entry) {
      return parseOptions(entry.options)
    }
  }
  return undefined
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
