import type { PayBrightOptions } from "./options"

/**
 * How a payment was authorized, and so how its money moves for as long as it lives: its capture
 * mode, its card processor (virtual card), and the lender environment and account it was approved
 * under. Recorded in the payment's data at authorization; a settings change applies to new
 * payments only, never reroutes the money of an open one.
 */
export type PaymentChannel = {
  capture_mode: "in_store" | "virtual_card"
  /** The processor that charges the virtual card ("stripe", "manual", "custom:<module>"); none in-store. */
  card_processor: string | null
  environment: "sandbox" | "production"
  /** The API key (x_account_id) the contract belongs to. */
  account_id: string
}

/** The channel new payments are authorized under with these options. */
export function channelOf(options: PayBrightOptions): PaymentChannel {
  return {
    capture_mode: options.captureMode,
    card_processor: options.captureMode === "virtual_card" ? processorKey(options.cardProcessor) : null,
    environment: options.environment,
    account_id: options.apiKey,
  }
}

export function sameChannel(a: PaymentChannel, b: PaymentChannel): boolean {
  return (
    a.capture_mode === b.capture_mode &&
    a.card_processor === b.card_processor &&
    a.environment === b.environment &&
    a.account_id === b.account_id
  )
}

/**
 * The options that move a payment's money through its own channel, with the credentials the store
 * holds now for its environment and account: those in force (medusa-config.ts with the admin's
 * saved settings on top), else medusa-config.ts's own. Answers why not when the store holds none.
 */
export function optionsForChannel(
  channel: PaymentChannel,
  candidates: { inForce: PayBrightOptions; configured?: PayBrightOptions }
): { options: PayBrightOptions } | { unavailable: string } {
  const sources = [candidates.inForce, candidates.configured].filter((source): source is PayBrightOptions => !!source)
  const lender = sources.find(
    (source) => source.environment === channel.environment && source.apiKey === channel.account_id
  )
  if (!lender) {
    return {
      unavailable: `this payment was authorized under PayBright's ${channel.environment} account ${channel.account_id}, whose credentials the store no longer has (the settings now use ${candidates.inForce.environment} account ${candidates.inForce.apiKey}); restore them on the settings page, or move the money in the PayBright portal`,
    }
  }
  if (channel.capture_mode === "in_store") {
    return { options: { ...lender, captureMode: "in_store" } }
  }
  const processor =
    channel.card_processor === "manual"
      ? { type: "manual" as const }
      : sources.map((source) => source.cardProcessor).find((config) => processorKey(config) === channel.card_processor)
  if (!processor) {
    return {
      unavailable: `this payment was authorized to be charged through ${channel.card_processor}, which the store no longer has set up (the settings now use ${processorKey(candidates.inForce.cardProcessor) ?? "no card processor"}); set it up again on the settings page, or charge the card by hand`,
    }
  }
  return { options: { ...lender, captureMode: "virtual_card", cardProcessor: processor } }
}

function processorKey(config: PayBrightOptions["cardProcessor"]): string | null {
  if (!config) return null
  return config.type === "custom" ? `custom:${config.resolve}` : config.type
}
