import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { messageOf } from "../../../lib/texts/log-text"
import type { Logger } from "@medusajs/framework/types"
import { handleApplicationResult, type HandledResult } from "../../../workflows/handle-application-result"
import { providersAsConfigured, providersInForce } from "../../../lib/provider-registry"
import { shopperDestination } from "../../../lib/storefront-urls"

/**
 * GET /paybright/return?ctx=…&x_…: the shopper's browser back from the hosted application
 * (x_url_complete, the result in the query). Decides the result as the callback does, then always
 * sends the shopper to the storefront: the order confirmation, or checkout with a status.
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const query = req.validatedQuery as Record<string, unknown>
  let handled: HandledResult
  try {
    handled = await handleApplicationResult(req.scope, query, {
      returnToken: query.ctx,
      // The lender's callback usually completes the cart as the shopper returns: the return waits
      // for that completion's lock, then finds its order.
      lockTimeoutSeconds: 15,
    })
  } catch (error) {
    // The lender's callback decides it; the shopper is told to choose again rather than shown an error page.
    ;(req.scope.resolve("logger") as Logger).error(
      `PayBright: a shopper's return could not be handled: ${messageOf(error)}`
    )
    handled = { outcome: { kind: "rejected", status: 400, reason: "the return could not be handled" } }
  }
  // Where this process cannot use the saved settings, medusa-config.ts still names the storefront.
  const registrations = await providersInForce(req.scope).catch(() => providersAsConfigured(req.scope))
  const settings = handled.options ?? registrations[0]?.options
  if (!settings) {
    res.status(404).json({ message: "PayBright is not set up on this store." })
    return
  }
  res.redirect(303, shopperDestination(settings, handled.outcome))
}
