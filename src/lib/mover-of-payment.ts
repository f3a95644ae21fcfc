import type { PayBrightOptions } from "./options"
import type { PaymentData } from "./session-data"
import type { ChannelMover } from "./settlement-types"
import type { ProviderSettings } from "./effective-settings"
import { clientsFor, clientsOf } from "./provider-clients"
import { channelOf, optionsForChannel, sameChannel, type PaymentChannel } from "./payment-channel"

/** Movers built for payments of an earlier channel, by the options they were built from. */
const built = new Map<string, ChannelMover>()

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
 * What moves this payment's money: the mover of the channel it was authorized under, whatever the
 * settings say now, with the credentials the store holds for that channel; or why it cannot.
 */
export function moverOfPayment(
  provider: Omit<ProviderSettings, "providerId">,
  payment: PaymentData
): { mover: ChannelMover; options: PayBrightOptions } | { unavailable: string } {
  const channel = recordedChannel(payment)
  if (!channel || sameChannel(channel, channelOf(provider.options))) {
    return { mover: clientsOf(provider).mover, options: provider.options }
  }
  const found = optionsForChannel(channel, { inForce: provider.options, configured: provider.configured })
  if ("unavailable" in found) return found
  const key = JSON.stringify(found.options)
  let mover = built.get(key)
  if (!mover) {
    mover = clientsFor(found.options).mover
    built.set(key, mover)
  }
  return { mover, options: found.options }
}
