import { createCardProcessor } from "./card-processors"
import type { LenderApi } from "../lenders/lender"
import { lender } from "../lenders"
import type { PayBrightOptions } from "./options"
import type { ProviderSettings } from "./effective-settings"
import { InStoreMover } from "./in-store"
import type { ChannelMover } from "./settlement-types"
import { VirtualCardMover } from "./virtual-card"

/** What a provider's money moves through: the lender's API client, and the mover of its channel. */
export type ProviderClients = { lender: LenderApi; mover: ChannelMover }

/** The lender client and the mover for a set of options. */
export function clientsFor(options: PayBrightOptions): ProviderClients {
  const api = lender.api({
    apiUrl: options.apiUrl,
    checkoutUrl: options.checkoutUrl,
    apiKey: options.apiKey,
    apiToken: options.apiToken,
    timeoutMs: options.timeoutMs,
  })
  const mover =
    options.captureMode === "virtual_card"
      ? new VirtualCardMover(api, createCardProcessor(options.cardProcessor!))
      : new InStoreMover(lender, api)
  return { lender: api, mover }
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
