import type { PayBrightOptions } from "../settings/options"
import type { PaymentData } from "./session-data"
import type { Settlement } from "./types"
import type { ProviderSettings } from "../settings/effective-settings"
import { clientsFor, clientsOf } from "./provider-clients"
import { channelOf, optionsForChannel, sameChannel, type PaymentChannel } from "./payment-channel"

/** Settlements built for payments of an earlier channel, by the options they were built from. */
const built = new Map<string, Settlement>()

/** The channel recorded on a payment; none on payments authorized before channels were recorded. */
export function recordedChannel(payment: PaymentData): PaymentChannel | undefined {
  if (!payment.environment || !payment.account_id) return undefined
  return {
    capture_mode: payment.capture_mode,
    card_processor: payment.card_processor ?? null,
    environment: payment.environment,
    account_id: payment.account_id,
  }
}

/**
 * How this payment's money moves: through the channel it was authorized under, whatever the
 * settings say now, with the credentials the store holds for that channel; or why it cannot.
 */
export function settlementFor(
  provider: Omit<ProviderSettings, "providerId">,
  payment: PaymentData
): { settlement: Settlement; options: PayBrightOptions } | { unavailable: string } {
  const channel = recordedChannel(payment)
  if (!channel || sameChannel(channel, channelOf(provider.options))) {
    return { settlement: clientsOf(provider).settlement, options: provider.options }
  }
  const found = optionsForChannel(channel, { inForce: provider.options, configured: provider.configured })
  if ("unavailable" in found) return found
  const key = JSON.stringify(found.options)
  let settlement = built.get(key)
  if (!settlement) {
    settlement = clientsFor(found.options).settlement
    built.set(key, settlement)
  }
  return { settlement, options: found.options }
}
