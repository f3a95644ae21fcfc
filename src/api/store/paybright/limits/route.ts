import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { Logger } from "@medusajs/framework/types"
import { PAYBRIGHT_UNAVAILABLE_TO_SHOPPERS } from "../../../../lib/settings-messages"
import { SettingsUnreadableError } from "../../../../lib/unreadable-settings"
import { providersInForce } from "../../../../lib/provider-registry"
import type { PayBrightOptions } from "../../../../lib/options"
import type { PayBrightLimits, PayBrightLimitsResponse } from "../../../../storefront/limits"

/**
 * GET /store/paybright/limits: for each PayBright provider, what a storefront needs before it
 * offers PayBright: the order totals and currencies it accepts now (to hide PayBright for a cart
 * outside them instead of having the session refused), the terms of the financing estimate and
 * the promotional widget's public key, as the merchant configured them. Nothing secret.
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse<PayBrightLimitsResponse | { message: string }>) => {
  let registrations: Awaited<ReturnType<typeof providersInForce>>
  try {
    registrations = await providersInForce(req.scope)
  } catch (error) {
    if (!(error instanceof SettingsUnreadableError)) throw error
    // Which setting or variable is wrong is for the log and the admin, never for a storefront.
    req.scope.resolve<Logger>("logger").error(`PayBright: the store's limits could not be read: ${error.message}`)
    res.status(503).json({ message: PAYBRIGHT_UNAVAILABLE_TO_SHOPPERS })
    return
  }
  res.json({ limits: registrations.map(({ providerId, options }) => storefrontLimits(providerId, options)) })
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
