import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { handleApplicationResult } from "../../../checkout/handle-application-result"
import { findCheckout } from "../../../checkout/find-checkout"
import { providerSettings } from "../../../checkout/provider-settings"
import { storefrontRedirect } from "../../../checkout/storefront-urls"

/**
 * GET /paybright/return: the shopper's browser back from the hosted application
 * (x_url_complete, the result in the query). Settles the result like the callback, then sends
 * the shopper to the order confirmation, or back to checkout with the reason.
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const outcome = await handleApplicationResult(req.scope, req.query, "", { waitForOrderMs: 15_000 })
  const reference = typeof req.query.x_reference === "string" ? req.query.x_reference : undefined
  const checkout = reference ? await findCheckout(req.scope, reference) : undefined
  const settings = checkout && (await providerSettings(req.scope, checkout.session.provider_id))
  if (!settings) {
    res.status(outcome.kind === "rejected" ? outcome.status : 404).json({
      message: "This PayBright result does not belong to a checkout of this store.",
    })
    return
  }
  res.redirect(303, storefrontRedirect(settings, outcome))
}
