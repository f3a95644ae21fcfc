import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { settingsInForce } from "./provider-registry"
import { allPages } from "./all-pages"
import { authorizationAge, authorizationStart } from "./authorization-age"
import { isPayBright } from "../storefront/provider"
import { OWED_FIELDS, owedBy, stillCapturable, totalOf } from "./totals"
import { lenderAmount } from "./lender-cents"
import { pluginRecords } from "./plugin-records"
import { ordersOfCollections } from "./medusa-links"
import { captureMomentOf } from "./capture-types"
import type { CaptureOn } from "./admin-types"

/** A PayBright authorization with an amount not yet captured, and when the lender cancels it. */
export type OpenAuthorization = {
  payment_id: string
  order_id?: string
  order_display_id?: number
  uncaptured: string
  currency_code: string
  authorized_at: string
  /** When the lender cancels what is still uncaptured (authorizationDays after authorization). */
  expires_at: string
  age_days: number
  /** Older than the provider's expiryWarningDays: ship and capture it, or cancel the order. */
  expiring: boolean
  /** What captures it by itself: the moment its registration said when it was authorized, or nothing. */
  capture_on: CaptureOn
}

/**
 * PayBright payments with an uncaptured remainder, oldest first, each with the date the lender
 * cancels it (protocol.md §6: 30 days unless the merchant negotiated longer).
 */
export async function listOpenAuthorizations(
  container: MedusaContainer,
  now = new Date()
): Promise<OpenAuthorization[]> {
  const payments = container.resolve(Modules.PAYMENT)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const providers = (await payments.listPaymentProviders({}))
    .map((provider) => provider.id)
    .filter((id) => isPayBright(id))
  const found: OpenAuthorization[] = []
  for (const providerId of providers) {
    const options = (await settingsInForce(container, providerId))?.options
    const warningDays = options?.expiryWarningDays ?? 25
    const lifetimeDays = options?.authorizationDays ?? 30
    // Fully captured payments have captured_at; cancelled ones leave nothing more to capture.
    const candidates = await allPages((paging) =>
      payments.listPayments({ provider_id: providerId, canceled_at: null, captured_at: null } as never, {
        relations: ["captures"],
        select: ["id", "amount", "currency_code", "created_at", "payment_collection_id", "data"],
        order: { created_at: "ASC" },
        ...paging,
      })
    )
    // One query for the orders of every listed payment: the admin's order list loads this.
    const orders = await ordersOfCollections<{
      id: string
      display_id: number
      status?: string
      summary?: Record<string, unknown> | null
      total: unknown
    }>(
      query,
      candidates.map((payment) => payment.payment_collection_id),
      ["id", "display_id", ...OWED_FIELDS]
    )
    const placedOn = await contractsOrderedOn(
      container,
      [...orders.values()].map((order) => order.id)
    )
    for (const payment of candidates) {
      const order = orders.get(payment.payment_collection_id)
      // A payment on another contract than the order's (a cart paid again kept it beside the
      // order's) is never to be captured: its void is listed in needs attention instead.
      const contract = order && placedOn.get(order.id)
      if (contract && (payment.data as { gateway_reference?: unknown } | null)?.gateway_reference !== contract) continue
      const uncaptured = stillCapturable(
        { amount: payment.amount as never, captured: totalOf(payment.captures) },
        owedBy(order)
      )
      if (MathBN.lte(uncaptured, 0)) continue
      const authorizedAt = authorizationStart(payment)
      const { expiresAt, ageDays, expiring } = authorizationAge(authorizedAt, lifetimeDays, warningDays, now)
      found.push({
        payment_id: payment.id,
        order_id: order?.id,
        order_display_id: order?.display_id,
        uncaptured: lenderAmount(uncaptured),
        currency_code: payment.currency_code,
        authorized_at: authorizedAt.toISOString(),
        expires_at: expiresAt.toISOString(),
        age_days: ageDays,
        expiring,
        capture_on: (options && captureMomentOf(options, payment.data as never)) || "manual",
      })
    }
  }
  return found.sort((a, b) => a.authorized_at.localeCompare(b.authorized_at))
}

/** The open authorizations past the warning age, each logged as a warning naming its order. */
export async function reportExpiringAuthorizations(
  container: MedusaContainer,
  now = new Date()
): Promise<OpenAuthorization[]> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const expiring = (await listOpenAuthorizations(container, now)).filter((authorization) => authorization.expiring)
  for (const entry of expiring) {
    const order = entry.order_id ? `#${entry.order_display_id}` : `of payment ${entry.payment_id}`
    logger.warn(
      `PayBright: order ${order} has ${entry.uncaptured} ${entry.currency_code.toUpperCase()} authorized for ${entry.age_days} days and not captured; PayBright cancels it on ${entry.expires_at.slice(0, 10)}: ship and capture it, or cancel the order`
    )
  }
  return expiring
}

/** The contract each of these orders was placed on (its `ordered` approval's), by order id. */
async function contractsOrderedOn(container: MedusaContainer, orderIds: string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map()
  const ordered = await pluginRecords(container).listPayBrightApprovals(
    { order_id: orderIds, state: "ordered" },
    { select: ["contract", "order_id"] }
  )
  return new Map(ordered.flatMap((approval) => (approval.order_id ? [[approval.order_id, approval.contract]] : [])))
}
