import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { Logger } from "@medusajs/framework/types"
import { handleApplicationResult } from "../../../workflows/handle-application-result"
import { SettingsUnreadableError } from "../../../lib/unreadable-settings"

/**
 * Seconds the callback waits for the cart's lock, when another request (a copy of the callback,
 * the shopper's return) is completing the cart; then it asks for a redelivery, which finds the
 * order that request placed. Nothing waits for that order inside this request.
 */
const CALLBACK_LOCK_WAIT_SECONDS = 2

/**
 * POST /paybright/callback?ctx=…: the lender's server-to-server result (x_url_callback). 200 only
 * once the result is decided here: an order exists, a decline or pending result is recorded, or
 * an approval that cannot become an order is recorded as an orphan for the merchant. Anything
 * else answers 503, so the lender delivers the result again.
 */
export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const handled = await handleApplicationResult(req.scope, req.validatedBody, {
    returnToken: (req.validatedQuery as { ctx?: string }).ctx,
    lockTimeoutSeconds: CALLBACK_LOCK_WAIT_SECONDS,
  }).catch((error: unknown) => {
    // The store cannot use its saved settings: the merchant's log and admin say why; the lender
    // reads only that the result was not taken, and delivers it again.
    if (!(error instanceof SettingsUnreadableError)) throw error
    req.scope.resolve<Logger>("logger").error(`PayBright: a lender's callback was not taken: ${error.message}`)
    return undefined
  })
  if (!handled) {
    res.setHeader("Retry-After", "60")
    res.status(503).json({ message: "The result was not taken now; deliver it again." })
    return
  }
  const { outcome } = handled
  if (outcome.kind === "rejected") {
    res.status(outcome.status).json({ message: outcome.reason })
    return
  }
  if (outcome.kind === "processing") {
    res.setHeader("Retry-After", "30")
    res.status(503).json({ result: outcome.kind, message: "The order is not placed yet; deliver the result again." })
    return
  }
  res.status(200).json({ result: outcome.kind })
}
