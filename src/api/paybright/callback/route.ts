import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { handleApplicationResult } from "../../../checkout/handle-application-result"

/** Seconds the callback waits for the cart's lock, when another request is completing the cart. */
const CALLBACK_LOCK_WAIT_SECONDS = 2
/**
 * Then, milliseconds it waits for that request's order before asking for a redelivery: a copy of
 * the callback, or the shopper's return, is usually completing the same cart, and an answer
 * within seconds spares the lender a retry a minute later. Well within the lender's 30 s timeout.
 */
const CALLBACK_ORDER_WAIT_MS = 10_000

/**
 * POST /paybright/callback?ctx=…: the lender's server-to-server result (x_url_callback). 200 only
 * once the result is decided here: an order exists, a decline or pending result is recorded, or
 * an approval that cannot become an order is recorded as an orphan for the merchant. Anything
 * else answers 503, so the lender delivers the result again.
 */
export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const { outcome } = await handleApplicationResult(req.scope, req.validatedBody, {
    returnToken: (req.validatedQuery as { ctx?: string }).ctx,
    lockTimeoutSeconds: CALLBACK_LOCK_WAIT_SECONDS,
    waitForOrderMs: CALLBACK_ORDER_WAIT_MS,
  })
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
