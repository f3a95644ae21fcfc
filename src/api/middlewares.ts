import {
  defineMiddlewares,
  validateAndTransformBody,
  validateAndTransformQuery,
  type MedusaNextFunction,
  type MedusaRequest,
  type MedusaResponse,
} from "@medusajs/framework/http"
import { randomUUID } from "node:crypto"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { orderOfCollection } from "../lib/medusa-links"
import { orderBalanceNotFinancedMessage } from "../lib/merchant-messages"
import { isPayBright } from "../storefront/provider"
import { CARD_REVEAL_POLICY } from "../policies/paybright"
import { orderBusyMessage, paymentBusyMessage } from "../lib/payment-lock-messages"
import { isSaid, spoken } from "../lib/texts/said"
import { guardOrderCancellationWorkflow } from "../workflows/guard-order-cancellation"
import { finishOrderCancellationWorkflow } from "../workflows/finish-order-cancellation"
import { guardPaymentMovementWorkflow } from "../workflows/guard-payment-movement"
import { isBusy } from "../lib/payment-lock"
import { lockTtlSeconds } from "../lib/lock-lease"
import { finishPaymentMovementWorkflow } from "../workflows/finish-payment-movement"
import { AdminListApprovalsQuery } from "./admin/paybright/approvals/validators"
import { AdminNoBody, AdminNoQuery, resolveRecordBody, SaveSettingsBody } from "./admin/paybright/validators"
import { ApplicationResultBody, CallbackQuery, ShopperReturnQuery } from "./paybright/validators"

/**
 * An admin's capture or refund takes the same lock as the plugin's own captures, so the two never
 * run at once on one payment, in one process or across several; and it is refused while another
 * movement of the payment is in doubt. The lock goes when the route (or the error handler) has
 * answered, that is when the work is over: never when the client leaves (a closed browser, a
 * proxy's timeout), which leaves the lender's call running. A lock that cannot be had within
 * PAYBRIGHT_LOCK_WAIT_SECONDS is answered 409, nothing sent.
 */
function guardPaymentMovement(movement: "capture" | "refund") {
  return async (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    // Medusa's own validator answers a malformed body; the guard reads only the amount asked.
    const amount = MovedAmount.safeParse(req.body).data?.amount
    const input = { payment_id: req.params.id, owner_id: randomUUID(), movement, amount }
    const { errors } = await guardPaymentMovementWorkflow(req.scope).run({ input, throwOnError: false })
    const failure = errors?.[0]
    if (failure && isBusy(failure.error)) {
      res.status(409).json({ type: "conflict", ...spoken(paymentBusyMessage(movement)) })
      return
    }
    if (failure && answeredAsSaid(res, failure.error)) return
    if (failure) {
      return next(failure.error)
    }
    whenAnswered(res, () => {
      void finishPaymentMovementWorkflow(req.scope)
        .run({ input })
        .catch(() => {})
    })
    next()
  }
}

const MovedAmount = z.object({ amount: z.number().optional() })

/**
 * A PayBright contract finances an order once, at checkout: after an order change, the plugin
 * carries it into the collection Medusa opens for what the order owes (src/lib/carried-contract.ts).
 * The Store API accepts a session on any collection, an order's included; a shopper's PayBright
 * session there would open a second application on a placed order, so it is refused (400) before
 * Medusa creates it. Other providers (a card for what the loan does not cover) are untouched.
 */
async function refuseApplicationOnOrder(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const provider = SessionProvider.safeParse(req.body).data?.provider_id
  if (!isPayBright(provider)) return next()
  const order = await orderOfCollection(req.scope.resolve(ContainerRegistrationKeys.QUERY), req.params.id)
  if (!order) return next()
  res.status(400).json({ type: "not_allowed", ...spoken(orderBalanceNotFinancedMessage()) })
}

const SessionProvider = z.object({ provider_id: z.string() })

/**
 * Medusa's cancellation of an order refunds its captured PayBright payments and cancels (voids)
 * the others, through the provider: it runs under the payments' locks like any other refund,
 * recorded with trigger `order_canceled`, and is refused (400, naming the record) while a movement
 * of them is running or in doubt. Locks and unclaimed records go once the route has answered.
 */
async function guardOrderCancellation(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const owner = randomUUID()
  const { result, errors } = await guardOrderCancellationWorkflow(req.scope).run({
    input: { order_id: req.params.id, owner_id: owner },
    throwOnError: false,
  })
  const failure = errors?.[0]
  if (failure && isBusy(failure.error)) {
    res.status(409).json({ type: "conflict", ...spoken(orderBusyMessage()) })
    return
  }
  if (failure && answeredAsSaid(res, failure.error)) return
  if (failure) {
    return next(failure.error)
  }
  whenAnswered(res, () => {
    void finishOrderCancellationWorkflow(req.scope)
      .run({ input: { ...result, owner_id: owner } })
      .catch(() => {})
  })
  next()
}

/**
 * A guard's refusal the merchant reads (a MerchantError: the sentence as facts beside Medusa's
 * English) answered 400 with both, as the plugin's own routes answer, so that the admin writes it
 * in the merchant's language; Medusa's error handler would keep the English alone. Answers whether
 * it answered.
 */
function answeredAsSaid(res: MedusaResponse, error: unknown): boolean {
  const sentence = (error as { said?: unknown } | null | undefined)?.said
  if (!isSaid(sentence)) return false
  res.status(400).json({ type: MedusaError.Types.NOT_ALLOWED, ...spoken(sentence) })
  return true
}

/**
 * Runs `done` once whoever answers the request has ended the response, whether or not the client
 * is still there. Node's `finish` says so while the client is there; once it has gone (`close`
 * before the end), the response's `writableEnded` turns true when the route or the error handler
 * ends it, and is watched for until then, or until the lock's lease would have lapsed anyway.
 */
function whenAnswered(res: MedusaResponse, done: () => void) {
  let answered = false
  const answer = () => {
    if (answered) return
    answered = true
    done()
  }
  res.once("finish", answer)
  res.once("close", () => {
    if (res.writableEnded) return answer()
    const givenUpAt = Date.now() + lockTtlSeconds() * 1000
    const watch = setInterval(() => {
      if (res.writableEnded) answer()
      if (answered || Date.now() > givenUpAt) clearInterval(watch)
    }, ANSWER_WATCH_MS)
    watch.unref()
  })
}

/** How often a response whose client has gone is looked at: the next movement waits at most this much longer. */
const ANSWER_WATCH_MS = 50

/**
 * Medusa's RBAC (MEDUSA_FF_RBAC) for every admin route the plugin adds: reading needs read access
 * to orders and payments; capture, retry, resolve, card reveal and settings need write access to
 * payments; a capture retried also needs `capture:create`, a capture or refund resolved
 * `capture:create` or `refund:create`; revealing a card also needs `paybright_card:reveal`, and changing where the money goes
 * (card processor, its key, environment, credentials) `paybright_settings:update`. Without RBAC
 * enabled, any admin user may use them, as the rest of the admin.
 */
const READ_POLICIES = [
  { resource: "order", operation: "read" },
  { resource: "payment", operation: "read" },
]
const WRITE_POLICIES = [{ resource: "payment", operation: "update" }]
/** What Medusa 2.21 requires on every /admin/payments/* route. */
const MEDUSA_PAYMENT_READ = [{ resource: "payment", operation: "read" }]

export default defineMiddlewares({
  routes: [
    { methods: ["GET"], matcher: "/admin/paybright/*", policies: READ_POLICIES },
    { methods: ["POST", "DELETE"], matcher: "/admin/paybright/*", policies: [...READ_POLICIES, ...WRITE_POLICIES] },
    // Revealing a card is a right of its own; changing the protected settings is checked by the
    // settings routes, which alone know whether a save changes them.
    { methods: ["POST"], matcher: "/admin/paybright/payments/:id/card/reveal", policies: [CARD_REVEAL_POLICY] },
    // A retried capture makes a Medusa Capture: Medusa's own right for it (resolving a record checks
    // capture:create or refund:create in its route, which alone knows the record's kind).
    {
      methods: ["POST"],
      matcher: "/admin/paybright/captures/:id/retry",
      policies: [{ resource: "capture", operation: "create" }],
    },
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
      methods: ["POST"],
      matcher: "/paybright/callback",
      // The lender's callback posts a form; the raw body is kept so the provider sees what was received.
      bodyParser: { preserveRawBody: true, sizeLimit: "64kb" },
      middlewares: [validateAndTransformQuery(CallbackQuery, {}), validateAndTransformBody(ApplicationResultBody)],
    },
    {
      methods: ["GET"],
      matcher: "/paybright/return",
      middlewares: [validateAndTransformQuery(ShopperReturnQuery, {})],
    },
    {
      methods: ["GET"],
      matcher: "/paybright/cancel",
      middlewares: [validateAndTransformQuery(ShopperReturnQuery, {})],
    },
    {
      methods: ["GET"],
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
      methods: ["GET" as const],
      matcher,
      middlewares: [validateAndTransformQuery(AdminNoQuery, {})],
    })),
    ...[
      "/admin/paybright/approvals/:id/handled",
      "/admin/paybright/captures/:id/retry",
      "/admin/paybright/voids/:id/retry",
      "/admin/paybright/payments/:id/card/reveal",
    ].map((matcher) => ({
      methods: ["POST" as const],
      matcher,
      middlewares: [validateAndTransformBody(AdminNoBody)],
    })),
    {
      methods: ["POST"],
      matcher: "/admin/paybright/records/:id/resolve",
      middlewares: [validateAndTransformBody(resolveRecordBody)],
    },
    // Medusa checks these routes' own policies after plugin middlewares run: the guards check the
    // same ones first, so a caller without the right never takes (or waits for) a payment's lock.
    {
      methods: ["POST"],
      matcher: "/admin/payments/:id/capture",
      policies: [...MEDUSA_PAYMENT_READ, { resource: "capture", operation: "create" }],
      middlewares: [guardPaymentMovement("capture")],
    },
    {
      methods: ["POST"],
      matcher: "/admin/payments/:id/refund",
      policies: [...MEDUSA_PAYMENT_READ, { resource: "refund", operation: "create" }],
      middlewares: [guardPaymentMovement("refund")],
    },
    {
      methods: ["POST"],
      matcher: "/store/payment-collections/:id/payment-sessions",
      middlewares: [refuseApplicationOnOrder],
    },
    {
      methods: ["POST"],
      matcher: "/admin/orders/:id/cancel",
      policies: [{ resource: "order", operation: "update" }],
      middlewares: [guardOrderCancellation],
    },
  ],
})
