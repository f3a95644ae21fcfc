import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { approvalLockKey } from "../lib/cart-lock"
import { giveLock, takeLock } from "./take-lock"
import { reopenVanishedOrderStep } from "./steps/reopen-vanished-order"

/** An approval whose order vanished, approved again under its cart's lock (see reopenVanishedOrderStep). */
export const reopenVanishedOrderWorkflow = createWorkflow(
  "paybright-reopen-vanished-order-workflow",
  (input: { approval_id: string; cart_id: string | null; session_id: string; lock_timeout: number }) => {
    const key = transform({ input }, ({ input }) => approvalLockKey(input))
    const owner = takeLock(key, { timeout: input.lock_timeout })
    const approval = reopenVanishedOrderStep({ approval_id: input.approval_id })
    giveLock(key, owner)
    return new WorkflowResponse(approval)
  }
)
