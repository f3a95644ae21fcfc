import { createCardProcessor } from "../card-processors"
import { LenderClient } from "../lender/client"
import type { PayBrightOptions } from "../settings/options"
import type { ProviderSettings } from "../settings/effective-settings"
import { InStoreSettlement } from "./in-store"
import type { Settlement } from "./types"
import { VirtualCardSettlement } from "./virtual-card"

/** What a provider's money moves through: the lender's API client, and its settlement. */
export type ProviderClients = { lender: LenderClient; settlement: Settlement }

/** The lender client and settlement for a set of options. */
export function clientsFor(options: PayBrightOptions): ProviderClients {
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

/** Clients built for each settings version's options object, so once per version and per process. */
const built = new WeakMap<PayBrightOptions, ProviderClients>()

/** The clients of a provider's settings in force: built on first use, then reused until a save. */
export function clientsOf(settings: Pick<ProviderSettings, "options">): ProviderClients {
  let clients = built.get(settings.options)
  if (!clients) {
    clients = clientsFor(settings.options)
    built.set(settings.options, clients)
  }
  return clients
}
