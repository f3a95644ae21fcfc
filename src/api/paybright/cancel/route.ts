import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { findCheckout } from "../../../checkout/find-checkout"
import { providerSettings } from "../../../checkout/provider-settings"
import { checkoutRedirect } from "../../../checkout/storefront-urls"

/**
 * GET /paybright/cancel?session_id=…: the shopper left the hosted application (x_url_cancel).
 * Nothing changes; the shopper goes back to checkout, told it was cancelled.
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const sessionId = typeof req.query.session_id === "string" ? req.query.session_id : ""
  const checkout = sessionId ? await findCheckout(req.scope, sessionId) : undefined
  const settings = checkout && (await providerSettings(req.scope, checkout.session.provider_id))
  if (!checkout || !settings) {
    res.status(404).json({ message: "This PayBright application does not belong to a checkout of this store." })
    return
  }
  res.redirect(303, checkoutRedirect(settings, "cancelled", checkout))
}
