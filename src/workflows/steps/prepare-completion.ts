import { MedusaError } from "@medusajs/framework/utils"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { beforeCompletionOf, undoCutShortCompletion } from "../../lib/cart-completion"
import { PAYMENT_CANCELLED } from "../../lib/lender-result-decision"

export const prepareCompletionStepId = "paybright-prepare-completion-step"

export type PrepareCompletionInput = { cart_id: string; session_id: string; lease_seconds: number }

/**
 * Under the cart's lock, before completing the cart:
 * - a cart whose payment Medusa cancelled is refused (NOT_ALLOWED, code PAYMENT_CANCELLED): Medusa's
 *   completion would hand that cancelled payment to a new order;
 * - what a completion cut short left (an order without its payment, or a link to an order Medusa
 *   removed) is undone, so that this completion places the order whole (reservations, payment,
 *   order.placed). A standing order younger than a completion's lease may belong to a completion
 *   still running: the step fails with a conflict, and the next delivery looks again. An order
 *   older than the session being completed was placed another way (a deferred payment method)
 *   and is left as it stands.
 * Nothing to compensate: what it removes was already abandoned.
 */
export const prepareCompletionStep = createStep(
  prepareCompletionStepId,
  async (input: PrepareCompletionInput, { container }) => {
    const scope = container as unknown as MedusaContainer
    const found = await beforeCompletionOf(scope, input.cart_id, input.lease_seconds, input.session_id)
    if (!found) return new StepResponse(null)
    if ("cancelledPaymentId" in found) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `payment ${found.cancelledPaymentId} of cart ${input.cart_id} was cancelled: no order is placed on it`,
        PAYMENT_CANCELLED
      )
    }
    if (found.recent) {
      throw new MedusaError(
        MedusaError.Types.CONFLICT,
        `order ${found.orderId} of cart ${input.cart_id} has no payment yet and may still be being placed`
      )
    }
    await undoCutShortCompletion(scope, found)
    const what = found.standing
      ? `order ${found.orderId} was left without its payment`
      : `the link to order ${found.orderId}, which Medusa had removed, was left`
    container
      .resolve<Logger>("logger")
      .warn(
        `PayBright: on cart ${input.cart_id}, ${what} by a completion that stopped half-way; it is undone and the cart completed again`
      )
    return new StepResponse(found.orderId)
  }
)
