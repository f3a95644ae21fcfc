import {
  defineMiddlewares,
  validateAndTransformBody,
  validateAndTransformQuery,
  type MedusaNextFunction,
  type MedusaRequest,
  type MedusaResponse,
} from "@medusajs/framework/http"
import { randomUUID } from "node:crypto"
import { guardPaymentMovementWorkflow, releasePaymentMovementWorkflow } from "../workflows/guard-payment-movement"
import { AdminListApprovalsQuery } from "./admin/paybright/approvals/validators"
import { AdminNoBody, AdminNoQuery, resolveRecordBody, SaveSettingsBody } from "./admin/paybright/validators"
import { ApplicationResultBody, CallbackQuery, ShopperReturnQuery } from "./paybright/validators"

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

/**
 * Medusa's RBAC (MEDUSA_FF_RBAC) for every admin route the plugin adds: reading needs read access
 * to orders and payments; capture, retry, resolve, card reveal and settings need write access to
 * payments. Without RBAC enabled, any admin user may use them, as the rest of the admin.
 */
const READ_POLICIES = [
  { resource: "order", operation: "read" },
  { resource: "payment", operation: "read" },
]
const WRITE_POLICIES = [{ resource: "payment", operation: "update" }]

export default defineMiddlewares({
  routes: [
    { methods: ["GET"], matcher: "/admin/paybright/*", policies: READ_POLICIES },
    { methods: ["POST", "DELETE"], matcher: "/admin/paybright/*", policies: [...READ_POLICIES, ...WRITE_POLICIES] },
    {
      methods: ["POST"],
      matcher: "/admin/paybright/settings/:provider_id",
      middlewares: [validateAndTransformBody(SaveSettingsBody)],
    },
    {
      methods: ["POST"],
      matcher: "/admin/paybright/settings/:provider_id/check",
      middlewares: [validateAndTransformBody(SaveSettingsBody)],
    },

    {
      method: ["POST"],
      matcher: "/paybright/callback",
      // The lender's callback posts a form; the raw body is kept so the provider sees what was received.
      bodyParser: { preserveRawBody: true, sizeLimit: "64kb" },
      middlewares: [validateAndTransformQuery(CallbackQuery, {}), validateAndTransformBody(ApplicationResultBody)],
    },
    { method: ["GET"], matcher: "/paybright/return", middlewares: [validateAndTransformQuery(ShopperReturnQuery, {})] },
    { method: ["GET"], matcher: "/paybright/cancel", middlewares: [validateAndTransformQuery(ShopperReturnQuery, {})] },
    {
      method: ["GET"],
      matcher: "/admin/paybright/approvals",
      middlewares: [validateAndTransformQuery(AdminListApprovalsQuery, {})],
    },
    ...[
      "/admin/paybright/authorizations",
      "/admin/paybright/attention",
      "/admin/paybright/orders/:id/captures",
      "/admin/paybright/orders/:id/panel",
      "/admin/paybright/payments/:id/card",
      "/admin/paybright/payments/:id/records",
      "/admin/paybright/settings",
      "/admin/paybright/settings/:provider_id",
      "/store/paybright/limits",
    ].map((matcher) => ({
      method: ["GET" as const],
      matcher,
      middlewares: [validateAndTransformQuery(AdminNoQuery, {})],
    })),
    ...[
      "/admin/paybright/approvals/:id/handled",
      "/admin/paybright/captures/:id/retry",
      "/admin/paybright/voids/:id/retry",
      "/admin/paybright/payments/:id/card/reveal",
    ].map((matcher) => ({
      method: ["POST" as const],
      matcher,
      middlewares: [validateAndTransformBody(AdminNoBody)],
    })),
    {
      method: ["POST"],
      matcher: "/admin/paybright/records/:id/resolve",
      middlewares: [validateAndTransformBody(resolveRecordBody)],
    },
    { method: ["POST"], matcher: "/admin/payments/:id/capture", middlewares: [guardPaymentMovement] },
    { method: ["POST"], matcher: "/admin/payments/:id/refund", middlewares: [guardPaymentMovement] },
  ],
})
