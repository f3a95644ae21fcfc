import {
  defineMiddlewares,
  type MedusaNextFunction,
  type MedusaRequest,
  type MedusaResponse,
} from "@medusajs/framework/http"
import { randomUUID } from "node:crypto"
import { validateAndTransformBody } from "@medusajs/framework/http"
import { guardPaymentMovementWorkflow, releasePaymentMovementWorkflow } from "../workflows/guard-payment-movement"
import { resolveRecordBody } from "./admin/paybright/validators"

/**
 * An admin's capture or refund takes the same lock as the plugin's own captures, so the two never
 * run at once on one payment, in one process or across several; and it is refused while another
 * movement of the payment is in doubt. The lock goes when the response ends.
 */
async function guardPaymentMovement(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const input = { payment_id: req.params.id, owner_id: randomUUID() }
  try {
    await guardPaymentMovementWorkflow(req.scope).run({ input })
  } catch (error) {
    return next(error)
  }
  let released = false
  const release = () => {
    if (!released) {
      released = true
      void releasePaymentMovementWorkflow(req.scope)
        .run({ input })
        .catch(() => {})
    }
  }
  res.once("finish", release)
  res.once("close", release)
  next()
}

export default defineMiddlewares({
  routes: [
    {
      method: ["POST"],
      matcher: "/paybright/callback",
      // The lender's callback posts a form; the raw body is kept so the provider sees what was received.
      bodyParser: { preserveRawBody: true, sizeLimit: "64kb" },
    },
    { method: ["POST"], matcher: "/admin/payments/:id/capture", middlewares: [guardPaymentMovement] },
    { method: ["POST"], matcher: "/admin/payments/:id/refund", middlewares: [guardPaymentMovement] },
    {
      method: ["POST"],
      matcher: "/admin/paybright/records/:id/resolve",
      middlewares: [validateAndTransformBody(resolveRecordBody)],
    },
  ],
})
