import { ContainerRegistrationKeys, MathBN, MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { clientsOf } from "./provider-clients"
import { settingsInForce } from "./provider-registry"
import { LenderError } from "../lenders/errors"
import { orderOfCollection } from "./medusa-links"
import type { ContractCard, LenderApi } from "../lenders/lender"
import { readPaymentData } from "./session-data"
import { cardProcessorOf } from "./payment-processor"
import { isPayBright } from "../storefront/provider"
import { totalOf } from "./totals"
import { lenderAmount } from "./lender-cents"

export type MaskedCard = {
  card_token: string
  last4: string
  expiry: string
  cardholder_name: string
  billing_address: ContractCard["billing_address"]
}

/** A PayBright payment paid through its virtual card, as the admin's card routes need it. */
export type CardPayment = {
  id: string
  lender: LenderApi
  /**
   * Who charges this payment's card: the processor it was authorized under (its data's
   * `card_processor`), or, for a payment authorized before that was recorded, the settings in force.
   */
  processor: string | null
  payment: { contract: string; currency_code: string; payment_collection_id: string }
}

/** What a reveal decides on and records: what is left to charge, whether the payment is cancelled, its order. */
export type RevealFacts = { uncaptured: string; cancelled: boolean; order_id: string | null }

/**
 * A PayBright payment paid through its virtual card, without its card; refuses any other payment.
 * Reads the payment alone: reading the masked card needs nothing more.
 */
export async function cardPayment(scope: MedusaContainer, paymentId: string): Promise<CardPayment> {
  const payments = scope.resolve(Modules.PAYMENT)
  const [payment] = await payments.listPayments(
    { id: paymentId },
    { select: ["id", "provider_id", "data", "currency_code", "payment_collection_id"] }
  )
  if (!payment) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment ${paymentId} was not found`)
  }
  const provider = isPayBright(payment.provider_id) ? await settingsInForce(scope, payment.provider_id) : undefined
  if (!provider) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${paymentId} is not a PayBright payment`)
  }
  const data = readPaymentData(payment.data)
  // The way it was authorized, whatever the settings say now.
  if (data.capture_mode !== "virtual_card") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Payment ${paymentId} is paid by in-store capture; it has no virtual card`
    )
  }
  return {
    id: payment.id,
    lender: clientsOf(provider).lender,
    processor: cardProcessorOf(payment.data, provider.options),
    payment: {
      contract: data.gateway_reference,
      currency_code: payment.currency_code,
      payment_collection_id: payment.payment_collection_id,
    },
  }
}

/** What a reveal needs beside the card: what is left to capture, whether it is cancelled, and its order. */
export async function revealFacts(scope: MedusaContainer, found: CardPayment): Promise<RevealFacts> {
  const [payment] = await scope
    .resolve(Modules.PAYMENT)
    .listPayments(
      { id: found.id },
      { select: ["id", "amount", "canceled_at", "payment_collection_id"], relations: ["captures"] }
    )
  return {
    uncaptured: lenderAmount(MathBN.sub(payment.amount as never, totalOf(payment.captures))),
    cancelled: !!payment.canceled_at,
    order_id:
      (await orderOfCollection(scope.resolve(ContainerRegistrationKeys.QUERY), found.payment.payment_collection_id))
        ?.id ?? null,
  }
}

/**
 * Reads a payment's virtual card from the lender, just in time, for the admin. The card is never
 * cached or stored: each call asks the lender again.
 */
export async function retrieveVirtualCard(found: CardPayment): Promise<ContractCard> {
  try {
    return await found.lender.card(found.payment.contract)
  } catch (error) {
    if (error instanceof LenderError) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, error.message)
    }
    throw error
  }
}

export function maskCard(card: ContractCard): MaskedCard {
  return {
    card_token: card.card_token,
    last4: card.pan.slice(-4),
    expiry: card.expiration,
    cardholder_name: card.cardholder_name,
    billing_address: card.billing_address,
  }
}
