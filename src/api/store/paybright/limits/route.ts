import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { providersInForce } from "../../../../settings/provider-registry"
import type { PayBrightOptions } from "../../../../settings/options"
import type { PayBrightLimits, PayBrightLimitsResponse } from "../../../../storefront/limits"

/**
 * GET /store/paybright/limits: for each PayBright provider, what a storefront needs before it
 * offers PayBright: the order totals and currencies it accepts now (to hide PayBright for a cart
 * outside them instead of having the session refused), the terms of the financing estimate and
 * the promotional widget's public key, as the merchant configured them. Nothing secret.
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse<PayBrightLimitsResponse>) => {
  const limits = (await providersInForce(req.scope)).map(({ providerId, options }) =>
    storefrontLimits(providerId, options)
  )
  res.json({ limits })
}

function storefrontLimits(providerId: string, options: PayBrightOptions): PayBrightLimits {
  return {
    provider_id: providerId,
    currencies: options.currencies,
    min_order_amount: options.minOrderAmount ?? null,
    max_order_amount: options.maxOrderAmount ?? null,
    financing:
      options.financingMonths !== undefined && options.financingApr !== undefined
        ? {
            months: options.financingMonths,
            apr: options.financingApr,
            setup_fee: options.financingSetupFee ?? null,
            monthly_fee: options.financingMonthlyFee ?? null,
            min_amount: options.financingMinAmount ?? null,
          }
        : null,
    promotional_widget: options.promotionalWidgetKey
      ? // The widget script is served by the lender's checkout host (the simulator serves a stand-in).
        { public_key: options.promotionalWidgetKey, script_url: `${options.checkoutUrl}/dist/sdk.js` }
      : null,
  }
}
