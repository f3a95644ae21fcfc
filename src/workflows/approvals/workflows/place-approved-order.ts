import { completeCartWorkflow } from "@medusajs/core-flows"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { type SessionUpdate, updatePayBrightSessionStep } from "../steps/update-session"
import { prepareCompletionStep } from "../steps/prepare-completion"
import { giveLock, takeLock } from "../../locks/take-lock"
import { completionLeaseSeconds } from "../../../locks/lock-lease"

/** The name of the step that waits for the cart's lock: its failure means another completion holds it. */
export const CART_LOCK_STEP = "paybright-lock-cart"

/**
 * Under the cart's lock (waiting at most `lock_timeout` seconds for another completion), readies
 * the cart (prepareCompletionStep: a cancelled payment refused, a completion cut short undone),
 * records the verified result on the session and completes the cart. Medusa's completion skips its
 * own lock step inside a workflow that holds it, so the Store API's completion, the callback and
 * the return never complete or touch the session at once.
 */
export const placeApprovedOrderWorkflow = createWorkflow(
  "paybright-place-approved-order-workflow",
  (input: { cart_id: string; lock_timeout: number; approval_id: string; session: SessionUpdate }) => {
    // The key the Store API's completion uses, with an owner (see lockOwnerStep), and a lease as
    // long as Medusa's own completion or the virtual card's read, whichever is longer.
    const lease = transform({ input }, () => completionLeaseSeconds())
    const owner = takeLock(input.cart_id, { timeout: input.lock_timeout, ttl: lease, name: CART_LOCK_STEP })
    prepareCompletionStep({ cart_id: input.cart_id, lease_seconds: lease })
    const update = transform({ input }, ({ input }) => ({ ...input.session, approval_id: input.approval_id }))
    updatePayBrightSessionStep(update).config({ name: "paybright-record-result-on-session" })
    const order = completeCartWorkflow.runAsStep({ input: { id: input.cart_id } })
    giveLock(input.cart_id, owner)
    return new WorkflowResponse(order)
  }
)
