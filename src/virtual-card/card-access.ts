import { MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { registeredProviderOptions } from "../checkout/provider-settings"
import { LenderClient } from "../lender/client"
import { LenderError } from "../lender/errors"
import type { VirtualCard } from "../lender/schemas"
import { readPaymentData } from "../providers/paybright/session-data"
import type { PayBrightOptions } from "../providers/paybright/options"

export type MaskedCard = {
  card_token: string
  last4: string
  expiry: string
  cardholder_name: string
  billing_address: VirtualCard["billing_address"]
}

/**
 * Reads a PayBright payment's virtual card from the lender, just in time, for the admin. The
 * card is never cached or stored: each call asks the lender again.
 */
export async function retrieveVirtualCard(
  scope: MedusaContainer,
  paymentId: string
): Promise<{ card: VirtualCard; options: PayBrightOptions }> {
  const payments = scope.resolve(Modules.PAYMENT)
  const [payment] = await payments.listPayments(
    { id: paymentId },
    { select: ["id", "provider_id", "data", "canceled_at"] }
  )
  if (!payment) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment ${paymentId} was not found`)
  }
  const options = payment.provider_id.startsWith("pp_paybright_")
    ? registeredProviderOptions(scope, payment.provider_id)
    : undefined
  if (!options) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${paymentId} is not a PayBright payment`)
  }
  if (options.captureMode !== "virtual_card") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Payment ${paymentId} is settled by in-store capture; it has no virtual card`
    )
  }
  const data = readPaymentData(payment.data)
  const lender = new LenderClient({
    apiUrl: options.apiUrl,
    apiKey: options.apiKey,
    apiToken: options.apiToken,
    timeoutMs: options.timeoutMs,
  })
  try {
    return { card: await lender.getVirtualCard(data.gateway_reference), options }
  } catch (error) {
    if (error instanceof LenderError) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, error.message)
    }
    throw error
  }
}

export function maskCard(card: VirtualCard): MaskedCard {
  return {
    card_token: card.card_token,
    last4: card.pan.slice(-4),
    expiry: card.expiration,
    cardholder_name: card.cardholder_name,
    billing_address: card.billing_address,
  }
}
