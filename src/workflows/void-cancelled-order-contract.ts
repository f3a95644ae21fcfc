import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { contractLockKey } from "../lib/payment-lock"
import { giveLock, takeLock } from "./take-lock"
import { planCancellationVoidStep } from "./steps/plan-cancellation-void"
import { voidCancelledContractStep } from "./steps/void-cancelled-contract"

export type VoidCancelledOrderContractInput = { order_id: string }

/**
 * After Medusa cancelled an order: its PayBright contract is voided, whatever its payments were
 * doing. Medusa's cancellation voids a contract a live payment holds, through the provider; this
 * workflow voids one no live payment held, because an order change had cancelled its payment
 * and the merchant cancelled the order before the contract was carried into another. Under the
 * order's contract lock, so that no carry runs meanwhile; nothing happens for a contract partly
 * captured, with a capture running or in doubt, or already voided (cancellationVoidPlan).
 */
export const voidCancelledOrderContractWorkflow = createWorkflow(
  "paybright-void-cancelled-order-contract-workflow",
  (input: VoidCancelledOrderContractInput) => {
    const key = transform({ input }, ({ input }) => contractLockKey(input.order_id))
    const owner = takeLock(key)
    const plan = planCancellationVoidStep({ order_id: input.order_id })
    const voided = when({ plan }, ({ plan }) => plan.void).then(() =>
      voidCancelledContractStep(
        transform({ plan, input }, ({ plan, input }) => {
          if (!plan.void) throw new Error("unreachable: no void planned")
          return { order_id: input.order_id, from: plan.from }
        })
      )
    )
    // The void is never undone: a lock not given back lapses rather than undo it.
    giveLock(key, owner, { lapseOnFailure: true })
    return new WorkflowResponse({ plan, voided: transform({ voided }, ({ voided }) => voided ?? null) })
  }
)
