import { acquireLockStep, releaseLockStep } from "@medusajs/core-flows"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { lockWaitSeconds } from "./lock-lease"
import { paymentLockKey } from "./payment-lock"
import { PAYMENT_LOCK_STEP } from "./guard-payment-movement"
import { lockOwnerStep } from "./steps/lock-owner"
import { dropUnclaimedStep, orderPayBrightPaymentsStep, prepareCancellationStep } from "./steps/prepare-cancellation"

export type OrderCancellationInput = { order_id: string; owner_id: string }

/**
 * Before Medusa cancels an order (`POST /admin/orders/:id/cancel`): takes the lock of each of its
 * PayBright payments for the request's owner, the lock every capture and refund takes, so
 * Medusa's refund and void run like any other; refuses while a movement is running or in doubt;
 * and writes the records Medusa's cancellation will claim (trigger `order_canceled`). The locks
 * go, and unclaimed records with them, once the route has answered (releaseOrderCancellationWorkflow).
 */
export const guardOrderCancellationWorkflow = createWorkflow(
  "paybright-guard-order-cancellation-workflow",
  (input: OrderCancellationInput) => {
    const found = orderPayBrightPaymentsStep({ order_id: input.order_id })
    const payments = transform({ found }, ({ found }) => found.payments)
    const keys = transform({ found }, ({ found }) => found.payments.map((payment) => paymentLockKey(payment.id)))
    // The request's own owner; this step only clears expired leases on the keys.
    lockOwnerStep({ key: keys })
    acquireLockStep({
      key: keys,
      ownerId: input.owner_id,
      timeout: transform({ input }, () => lockWaitSeconds()),
      ttl: transform({ found }, ({ found }) => found.lease),
    }).config({ name: PAYMENT_LOCK_STEP })
    const prepared = prepareCancellationStep({ order_id: input.order_id, payments })
    return new WorkflowResponse({ keys, prepared })
  }
)

/** Releases what guardOrderCancellationWorkflow took, and drops the records Medusa did not claim. */
export const releaseOrderCancellationWorkflow = createWorkflow(
  "paybright-release-order-cancellation-workflow",
  (input: { keys: string[]; prepared: string[]; owner_id: string }) => {
    dropUnclaimedStep({ record_ids: input.prepared })
    releaseLockStep({ key: input.keys, ownerId: input.owner_id })
    return new WorkflowResponse(true)
  }
)
