import { completeCartWorkflow } from "@medusajs/core-flows"
import { createWorkflow, parallelize, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { recordApprovalStep } from "../steps/record-approval"
import { requireOpenApprovalStep } from "../steps/require-open-approval"
import { prepareCompletionStep } from "../steps/prepare-completion"
import { markPlacedApprovalStep } from "../steps/mark-placed-approval"
import { giveLock, takeLock } from "../../locks/take-lock"
import { completionLeaseSeconds } from "../../../locks/lock-lease"
import type { RecordApprovalInput } from "../../../approvals/approval-record"

/** The name of the step that waits for the cart's lock: its failure means another completion holds it. */
export const CART_LOCK_STEP = "paybright-lock-cart"

export type PlaceApprovalInput = {
  cart_id: string
  payment_collection_id: string
  /** Seconds to wait for another completion of the cart. */
  lock_timeout: number
  approval: RecordApprovalInput
}

/**
 * From a verified approval to its order, under the cart's lock (waiting at most `lock_timeout`
 * seconds for another completion): the approval is recorded (the table keeps one row per contract
 * and one live approval per session, whoever writes first) while the cart is readied
 * (prepareCompletionStep: a cancelled payment refused, a completion cut short undone), and the
 * cart completed if the approval is open; once the cart is given back, the approval is marked
 * ordered when the order is its own. Medusa's completion skips its own lock step inside a
 * workflow that holds it, so the Store API's completion, the callback and the return never
 * complete the cart at once; the provider's authorizePayment finds the approval by its row. The
 * record stays whatever follows: a completion that fails leaves an approval its next delivery,
 * or the sweep, decides.
 */
export const placeApprovalWorkflow = createWorkflow(
  "paybright-place-approval-workflow",
  (input: PlaceApprovalInput) => {
    // The key the Store API's completion uses, with an owner (see lockOwnerStep), and a lease as
    // long as Medusa's own completion or the virtual card's read, whichever is longer.
    const lease = transform({ input }, () => completionLeaseSeconds())
    const owner = takeLock(input.cart_id, { timeout: input.lock_timeout, ttl: lease, name: CART_LOCK_STEP })
    // Side by side: neither reads what the other writes, and neither is undone by a failure after it.
    const [{ approval }] = parallelize(
      recordApprovalStep(input.approval),
      prepareCompletionStep({ cart_id: input.cart_id, session_id: input.approval.session_id, lease_seconds: lease })
    )
    requireOpenApprovalStep(approval)
    const order = completeCartWorkflow.runAsStep({ input: { id: input.cart_id } })
    const placed = transform({ input, approval, order }, ({ input, approval, order }) => ({
      approval_id: approval.id,
      contract: approval.contract,
      order_id: order.id,
      payment_collection_id: input.payment_collection_id,
    }))
    giveLock(input.cart_id, owner)
    // Last, once the cart is given back: until then a failure (of giving it back) makes Medusa undo
    // the order, and a row already saying ordered would send the shopper's return to it.
    const marked = markPlacedApprovalStep(placed)
    return new WorkflowResponse({ order, approval, marked })
  }
)
