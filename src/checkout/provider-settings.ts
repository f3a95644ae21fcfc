import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { parseOptions, type PayBrightOptions } from "../providers/paybright/options"

type ProviderEntry = { resolve?: unknown; id?: string; options?: Record<string, unknown> }

/**
 * The public settings of the PayBright provider registered as `providerId` (pp_paybright_<id>),
 * read from the store's own configuration: routes run outside the payment module and cannot
 * reach the provider instance. Secrets are dropped on the way out.
 */
export function providerSettings(
  scope: MedusaContainer,
  providerId: string
): Omit<PayBrightOptions, "apiToken"> | undefined {
  const config = scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as ConfigModule
  for (const module of Object.values(config.modules ?? {})) {
    const providers = (module as { options?: { providers?: ProviderEntry[] } } | boolean)
    const entries = typeof providers === "object" ? providers.options?.providers ?? [] : []
    for (const entry of entries) {
      if (`pp_paybright_${entry.id}` === providerId && entry.options) {
        const { apiToken: _secret, ...settings } = parseOptions(entry.options)
        return settings
      }
    }
  }
  return undefined
}
