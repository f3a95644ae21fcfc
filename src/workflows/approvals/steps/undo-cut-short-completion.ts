import { MedusaError } from "@medusajs/framework/utils"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cutShortCompletionOf, undoCutShortCompletion } from "../cut-short-completion"

/** The name of the step that undoes a completion cut short: its failure on a recent one means "wait". */
export const UNDO_CUT_SHORT_COMPLETION_STEP = "paybright-undo-cut-short-completion-step"

/**
 * Under the cart's lock, before completing the cart: what a completion cut short left (an order
 * without its payment, or a link to an order Medusa removed) is undone, so that this completion
 * places the order whole (reservations, payment, order.placed). A standing order younger than a
 * completion's lease may belong to a completion still running: the step fails with a conflict, and
 * the next delivery looks again. Nothing to compensate: what it removes was already abandoned.
 */
export const undoCutShortCompletionStep = createStep(
  UNDO_CUT_SHORT_COMPLETION_STEP,
  async (input: { cart_id: string; lease_seconds: number }, { container }) => {
    const scope = container as unknown as MedusaContainer
    const left = await cutShortCompletionOf(scope, input.cart_id, input.lease_seconds)
    if (!left) return new StepResponse(null)
    if (left.recent) {
      throw new MedusaError(
        MedusaError.Types.CONFLICT,
        `order ${left.orderId} of cart ${input.cart_id} has no payment yet and may still be being placed`
      )
    }
    await undoCutShortCompletion(scope, left)
    const what = left.standing
      ? `order ${left.orderId} was left without its payment`
      : `the link to order ${left.orderId}, which Medusa had removed, was left`
    container
      .resolve<Logger>("logger")
      .warn(
        `PayBright: on cart ${input.cart_id}, ${what} by a completion that stopped half-way; it is undone and the cart completed again`
      )
    return new StepResponse(left.orderId)
  }
)
