import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { contractLockKey, paymentLockKey } from "../lib/payment-lock"
import { orderPayBrightPaymentsStep } from "./steps/order-paybright-payments"
import { prepareCancellationStep } from "./steps/prepare-cancellation"
import { takeLock } from "./take-lock"

export type OrderCancellationInput = { order_id: string; owner_id: string }

/**
 * Before Medusa cancels an order (`POST /admin/orders/:id/cancel`): takes the order's contract
 * lock (the carry's), then the lock of each of its
 * PayBright payments for the request's owner, the lock every capture and refund takes, so
 * Medusa's refund and void run like any other; refuses while a movement is running or in doubt;
 * and writes the records Medusa's cancellation will claim (trigger `order_canceled`). The locks
 * are given back, and unclaimed records dropped, once the route has answered (finishOrderCancellationWorkflow).
 */
export const guardOrderCancellationWorkflow = createWorkflow(
  "paybright-guard-order-cancellation-workflow",
  (input: OrderCancellationInput) => {
    // First the contract's: a carry running now ends before the payments are read, and none starts
    // until the cancellation has answered.
    const contractKey = transform({ input }, ({ input }) => contractLockKey(input.order_id))
    takeLock(contractKey, { owner: input.owner_id, name: "order-contract" })
    const found = orderPayBrightPaymentsStep({ order_id: input.order_id })
    const payments = transform({ found }, ({ found }) => found.payments)
    const paymentKeys = transform({ found }, ({ found }) => found.payments.map((payment) => paymentLockKey(payment.id)))
    takeLock(paymentKeys, {
      owner: input.owner_id,
      ttl: transform({ found }, ({ found }) => found.lease),
    })
    const prepared = prepareCancellationStep({
      order_id: input.order_id,
      payments,
      every_id: transform({ found }, ({ found }) => found.every_id),
    })
    const keys = transform({ contractKey, paymentKeys }, ({ contractKey, paymentKeys }) => [
      ...paymentKeys,
      contractKey,
    ])
    return new WorkflowResponse({ keys, prepared })
  }
)
