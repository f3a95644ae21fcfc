import { Modules, PaymentActions } from "@medusajs/framework/utils"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { lenderFieldsOf } from "../providers/paybright/approval"
import { findCheckout } from "./find-checkout"
import { awaitOrder, placeOrder } from "./place-order"

/** What came of a result delivered by the lender's callback or the shopper's return. */
export type ApplicationResultOutcome =
  | { kind: "placed"; orderId: string; cartId: string; countryCode?: string }
  | { kind: "processing"; cartId: string; countryCode?: string }
  | { kind: "declined" | "pending"; cartId?: string; countryCode?: string }
  | { kind: "not_placed"; cartId: string; countryCode?: string; reason: string }
  | { kind: "rejected"; status: 400 | 401 | 404; reason: string }

/**
 * The one path for a hosted-application result, whichever of the callback and the return
 * arrives first: verify it (through the provider, which alone holds the API token), record it on
 * its payment session, then complete the cart once. Repeats are harmless.
 */
export async function handleApplicationResult(
  scope: MedusaContainer,
  input: unknown,
  rawData: string | Buffer = "",
  options: { waitForOrderMs?: number } = {}
): Promise<ApplicationResultOutcome> {
  const logger = scope.resolve("logger") as Logger
  const fields = lenderFieldsOf(input)
  if (!fields?.x_reference || !fields.x_signature) {
    logger.warn("PayBright: ignored a request without a signed application result")
    return { kind: "rejected", status: 400, reason: "no signed PayBright result" }
  }
  const checkout = await findCheckout(scope, fields.x_reference)
  if (!checkout) {
    logger.warn(`PayBright: ignored a result for unknown payment session ${fields.x_reference}`)
    return { kind: "rejected", status: 404, reason: "unknown payment session" }
  }
  const payments = scope.resolve(Modules.PAYMENT)
  const { session, cartId, countryCode } = checkout
  const verdict = await payments.getWebhookActionAndData({
    provider: session.provider_id.replace(/^pp_/, ""),
    payload: { data: fields, rawData, headers: {} },
  })
  if (verdict.action === PaymentActions.NOT_SUPPORTED) {
    return { kind: "rejected", status: 401, reason: "the result did not verify" }
  }
  if (verdict.action !== PaymentActions.AUTHORIZED) {
    return { kind: verdict.action === PaymentActions.PENDING ? "pending" : "declined", cartId, countryCode }
  }
  if (!cartId) {
    logger.error(`PayBright: approved payment session ${session.id} belongs to no cart`)
    return { kind: "rejected", status: 404, reason: "the payment session belongs to no cart" }
  }
  if (checkout.orderId) {
    return { kind: "placed", orderId: checkout.orderId, cartId, countryCode }
  }
  if (!sameResult(session.data.lender_result, fields)) {
    await payments.updatePaymentSession({
      id: session.id,
      data: { ...session.data, lender_result: fields },
      amount: session.amount as never,
      currency_code: session.currency_code,
    })
  }
  const placed = await placeOrder(scope, cartId)
  if (placed.placed) {
    logger.info(`PayBright: order ${placed.orderId} placed for cart ${cartId}`)
    return { kind: "placed", orderId: placed.orderId, cartId, countryCode }
  }
  if (placed.inProgress) {
    const orderId = options.waitForOrderMs ? await awaitOrder(scope, cartId, options.waitForOrderMs) : undefined
    return orderId ? { kind: "placed", orderId, cartId, countryCode } : { kind: "processing", cartId, countryCode }
  }
  logger.error(`PayBright: approved cart ${cartId} could not be completed: ${placed.reason}`)
  return { kind: "not_placed", cartId, countryCode, reason: placed.reason }
}

function sameResult(recorded: unknown, fields: Record<string, string>): boolean {
  const previous = lenderFieldsOf(recorded)
  return !!previous && previous.x_signature?.toLowerCase() === fields.x_signature.toLowerCase()
}
