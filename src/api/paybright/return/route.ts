import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { handleApplicationResult } from "../../../checkout/handle-application-result"
import { payBrightRegistrations } from "../../../checkout/provider-settings"
import { shopperDestination } from "../../../checkout/storefront-urls"

/**
 * GET /paybright/return?ctx=…&x_…: the shopper's browser back from the hosted application
 * (x_url_complete, the result in the query). Settles the result like the callback, then always
 * sends the shopper to the storefront: the order confirmation, or checkout with a status.
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const query = req.validatedQuery as Record<string, unknown>
  const { outcome, options } = await handleApplicationResult(req.scope, query, {
    returnToken: query.ctx,
    lockTimeoutSeconds: 15,
    waitForOrderMs: 5_000,
  })
  const settings = options ?? (await payBrightRegistrations(req.scope))[0]?.options
  if (!settings) {
    res.status(404).json({ message: "PayBright is not set up on this store." })
    return
  }
  res.redirect(303, shopperDestination(settings, outcome))
}
