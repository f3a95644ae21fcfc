import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { registeredProviderOptions } from "../checkout/provider-settings"

export type ExpiringAuthorization = {
  payment_id: string
  order_id?: string
  order_display_id?: number
  uncaptured: string
  currency_code: string
  authorized_at: string
  age_days: number
}

const DAY = 24 * 60 * 60 * 1000

/**
 * PayBright payments with an uncaptured remainder older than the provider's expiryWarningDays:
 * the lender cancels authorizations not captured within 30 days. Each is logged as a warning.
 */
export async function reportExpiringAuthorizations(container: MedusaContainer, now = new Date()): Promise<ExpiringAuthorization[]> {
  const payments = container.resolve(Modules.PAYMENT)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const providers = (await payments.listPaymentProviders({})).map((provider) => provider.id).filter((id) => id.startsWith("pp_paybright_"))
  const found: ExpiringAuthorization[] = []
  for (const providerId of providers) {
    const days = registeredProviderOptions(container, providerId)?.expiryWarningDays ?? 25
    const cutoff = new Date(now.getTime() - days * DAY)
    const candidates = await payments.listPayments(
      { provider_id: providerId, canceled_at: null, captured_at: null, created_at: { $lt: cutoff } } as never,
      { relations: ["captures"], select: ["id", "amount", "currency_code", "created_at", "payment_collection_id"] }
    )
    for (const payment of candidates) {
      const captured = (payment.captures ?? []).reduce((sum, capture) => MathBN.add(sum, capture.amount as never), MathBN.convert(0))
      const uncaptured = MathBN.sub(payment.amount as never, captured)
      if (MathBN.lte(uncaptured, 0)) continue
      const { data: links } = await query.graph({
        entity: "order_payment_collection",
        fields: ["order.id", "order.display_id"],
        filters: { payment_collection_id: payment.payment_collection_id },
      })
      const order = links[0]?.order as { id: string; display_id: number } | undefined
      const entry: ExpiringAuthorization = {
        payment_id: payment.id,
        order_id: order?.id,
        order_display_id: order?.display_id,
        uncaptured: uncaptured.toFixed(2),
        currency_code: payment.currency_code,
        authorized_at: new Date(payment.created_at as Date).toISOString(),
        age_days: Math.floor((now.getTime() - new Date(payment.created_at as Date).getTime()) / DAY),
      }
      found.push(entry)
      logger.warn(
        `PayBright: order ${order ? `#${order.display_id}` : `of payment ${payment.id}`} has ${entry.uncaptured} ${entry.currency_code.toUpperCase()} authorized for ${entry.age_days} days and not captured; PayBright cancels authorizations after 30 days: ship and capture it, or cancel the order`
      )
    }
  }
  return found
}
