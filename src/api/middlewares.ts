import {
  defineMiddlewares,
  validateAndTransformBody,
  validateAndTransformQuery,
  type MedusaNextFunction,
  type MedusaRequest,
  type MedusaResponse,
} from "@medusajs/framework/http"
import { Modules } from "@medusajs/framework/utils"
import { randomUUID } from "node:crypto"
import { paymentLockKey } from "../capture/payment-lock"
import { AdminListApprovalsQuery, AdminMarkApprovalHandledBody } from "./admin/paybright/approvals/validators"
import { AdminNoBody, AdminNoQuery, SaveSettingsBody } from "./admin/paybright/validators"
import { ApplicationResultBody, CallbackQuery, ShopperReturnQuery } from "./paybright/validators"

/**
 * An admin's capture or refund takes the same lock as the plugin's own captures at shipment, so
 * the two never run at once on one payment, in one process or across several.
 */
async function lockPayment(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const locking = req.scope.resolve(Modules.LOCKING)
  const key = paymentLockKey(req.params.id)
  const ownerId = randomUUID()
  try {
    await acquireWithin(() => locking.acquire(key, { ownerId, expire: 120 }), 60_000)
  } catch (error) {
    return next(error)
  }
  let released = false
  const release = () => {
    if (!released) {
      released = true
      void locking.release(key, { ownerId }).catch(() => {})
    }
  }
  res.once("finish", release)
  res.once("close", release)
  next()
}

async function acquireWithin(acquire: () => Promise<unknown>, timeoutMs: number) {
  const until = Date.now() + timeoutMs
  for (;;) {
    try {
      return await acquire()
    } catch (error) {
      if (Date.now() > until) throw error
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
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
    {
      method: ["POST"],
      matcher: "/admin/paybright/approvals/:id/handled",
      middlewares: [validateAndTransformBody(AdminMarkApprovalHandledBody)],
    },
    ...[
      "/admin/paybright/authorizations",
      "/admin/paybright/attention",
      "/admin/paybright/orders/:id/captures",
      "/admin/paybright/orders/:id/panel",
      "/admin/paybright/payments/:id/card",
      "/admin/paybright/settings",
      "/admin/paybright/settings/:provider_id",
      "/store/paybright/limits",
    ].map((matcher) => ({
      method: ["GET" as const],
      matcher,
      middlewares: [validateAndTransformQuery(AdminNoQuery, {})],
    })),
    ...["/admin/paybright/captures/:id/retry", "/admin/paybright/payments/:id/card/reveal"].map((matcher) => ({
      method: ["POST" as const],
      matcher,
      middlewares: [validateAndTransformBody(AdminNoBody)],
    })),
    { method: ["POST"], matcher: "/admin/payments/:id/capture", middlewares: [lockPayment] },
    { method: ["POST"], matcher: "/admin/payments/:id/refund", middlewares: [lockPayment] },
  ],
})
