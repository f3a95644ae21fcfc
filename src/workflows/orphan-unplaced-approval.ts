import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { OrphanReason } from "../modules/paybright/approval-reasons"
import { orphanUnlessOrderedStep } from "./steps/orphan-unless-ordered"
import { approvalLockKey } from "../lib/cart-lock"
import { giveLock, takeLock } from "./take-lock"
import { updatePayBrightSessionStep } from "./steps/update-session"

/**
 * An approval whose time is up (the grace period is over, or its completion failed for good):
 * decided under its cart's lock, the one Medusa's completion takes, so no storefront or lender
 * delivery completes the cart meanwhile. An orphan is withdrawn from its session, even one Medusa
 * authorized, so nothing may place an order on it later.
 */
export const orphanUnplacedApprovalWorkflow = createWorkflow(
  "paybright-orphan-unplaced-approval-workflow",
  (input: {
    approval_id: string
    cart_id: string | null
    session_id: string
    reason: OrphanReason
    /** For `not_placed`: what the last attempt to place its order answered. */
    placement_error?: string | null
    lock_timeout: number
  }) => {
    const key = transform({ input }, ({ input }) => approvalLockKey(input))
    // Skipped (Medusa's lock steps are) when run as a step of a workflow that holds the lock.
    const owner = takeLock(key, { timeout: input.lock_timeout })
    const approval = orphanUnlessOrderedStep({
      approval_id: input.approval_id,
      reason: input.reason,
      placement_error: input.placement_error,
    })
    when({ approval }, ({ approval }) => approval.state === "orphaned").then(() => {
      updatePayBrightSessionStep(
        transform({ input, approval }, ({ input, approval }) => ({
          session_id: input.session_id,
          data: { paybright_status: "expired" },
          withdrawn_contract: approval.contract,
        }))
      ).config({ name: "paybright-withdraw-approval-from-session" })
    })
    giveLock(key, owner)
    return new WorkflowResponse(approval)
  }
)
