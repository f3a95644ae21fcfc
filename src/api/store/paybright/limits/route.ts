import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { payBrightRegistrations } from "../../../../checkout/provider-settings"

export type PayBrightLimits = {
  provider_id: string
  currencies: string[]
  /** Decimal strings; null when there is no limit. */
  min_order_amount: string | null
  max_order_amount: string | null
}

/**
 * GET /store/paybright/limits: the order totals and currencies each PayBright provider accepts
 * now, so a storefront can hide PayBright for a cart outside them instead of offering it and
 * having the session refused. Nothing secret.
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse<{ limits: PayBrightLimits[] }>) => {
  const limits = (await payBrightRegistrations(req.scope)).map(({ providerId, options }) => ({
    provider_id: providerId,
    currencies: options.currencies,
    min_order_amount: options.minOrderAmount ?? null,
    max_order_amount: options.maxOrderAmount ?? null,
  }))
  res.json({ limits })
}
