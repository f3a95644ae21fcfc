import { completeCartWorkflow, releaseLockStep } from "@medusajs/core-flows"
import { createWorkflow, parallelize, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { lockOwnerStep } from "./steps/lock-owner"
import { acquireLockOrConflictStep } from "./steps/acquire-lock-or-conflict"
import { requireOpenApprovalStep } from "./steps/require-open-approval"
import { prepareCompletionStep } from "./steps/prepare-completion"

export const placeApprovalWorkflowId = "paybright-place-approval-workflow"

export type PlaceApprovalInput = {
  cart_id: string
  session_id: string
  /** The recorded approval the order is placed on. */
  approval_id: string
  /** The cart lock's lease, which an order left by a completion still running is younger than. */
  lease_seconds: number
  /** Seconds to wait for another completion of the cart. */
  lock_timeout: number
}

/**
 * From a recorded approval to its order, under the cart's lock (the key the Store API's completion
 * takes; held elsewhere, the run fails with a CONFLICT): the approval must still be open and the
 * cart ready (prepareCompletionStep: a cancelled payment refused, a completion cut short undone),
 * then the cart is completed as the Store API does. Medusa's completion skips its own lock step
 * inside a workflow, so the Store API's completion, the callback and the return never complete the
 * cart at once; the provider's authorizePayment finds the approval by its row. The lock is given
 * back inside this workflow, even when it runs as a step: a failure to give it back makes Medusa
 * undo the order, and a failure leaves the recorded approval for the next delivery, or the sweep,
 * to decide.
 */
export const placeApprovalWorkflow = createWorkflow(placeApprovalWorkflowId, (input: PlaceApprovalInput) => {
  const owner = lockOwnerStep({ key: input.cart_id })
  acquireLockOrConflictStep({
    key: input.cart_id,
    owner,
    timeout: input.lock_timeout,
    ttl: input.lease_seconds,
  })
  parallelize(
    requireOpenApprovalStep({ approval_id: input.approval_id }),
    prepareCompletionStep({ cart_id: input.cart_id, session_id: input.session_id, lease_seconds: input.lease_seconds })
  )
  const order = completeCartWorkflow.runAsStep({ input: { id: input.cart_id } })
  releaseLockStep({ key: input.cart_id, ownerId: owner, executeOnSubWorkflow: true })
  return new WorkflowResponse(order)
})
