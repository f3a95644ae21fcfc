import { acquireLockStep, completeCartWorkflow, releaseLockStep } from "@medusajs/core-flows"
import {
  createStep,
  createWorkflow,
  StepResponse,
  transform,
  WorkflowResponse,
} from "@medusajs/framework/workflows-sdk"
import { Modules } from "@medusajs/framework/utils"
import type { OrphanReason } from "../../checkout/approval-messages"
import {
  markApprovalHandledStep,
  markApprovalOrderedStep,
  orphanApprovalStep,
  recordApprovalStep,
  type RecordApprovalInput,
} from "./steps"

/** The name of the step that waits for the cart's lock: its failure means another completion holds it. */
export const CART_LOCK_STEP = "paybright-lock-cart"

/** Records a verified approval (or finds it), under the lock of its payment session. */
export const recordApprovalWorkflow = createWorkflow("paybright-record-approval", (input: RecordApprovalInput) => {
  const key = transform({ input }, ({ input }) => `paybright-approval:${input.session_id}`)
  acquireLockStep({ key, timeout: 15, ttl: 30 })
  const recorded = recordApprovalStep(input)
  releaseLockStep({ key })
  return new WorkflowResponse(recorded)
})

export const orphanApprovalWorkflow = createWorkflow(
  "paybright-orphan-approval",
  (input: { approval_id: string; reason: OrphanReason }) => {
    const approval = orphanApprovalStep(input)
    return new WorkflowResponse(approval)
  }
)

export const markApprovalOrderedWorkflow = createWorkflow(
  "paybright-mark-approval-ordered",
  (input: { approval_id: string; order_id: string }) => new WorkflowResponse(markApprovalOrderedStep(input))
)

export const markApprovalHandledWorkflow = createWorkflow(
  "paybright-mark-approval-handled",
  (input: { approval_id: string; actor: string }) => new WorkflowResponse(markApprovalHandledStep(input))
)

type SessionUpdate = { session_id: string; data: Record<string, unknown> }

/**
 * Hands the payment session a verified result (or the withdrawal of an approval) through the
 * payment module, which passes it to the provider's updatePayment: the provider alone seals it.
 */
const updatePayBrightSessionStep = createStep(
  "paybright-update-session",
  async (input: SessionUpdate, { container }) => {
    const payments = container.resolve(Modules.PAYMENT)
    const [session] = await payments.listPaymentSessions(
      { id: input.session_id },
      { select: ["id", "amount", "currency_code", "data"] }
    )
    const updated = await payments.updatePaymentSession({
      id: session.id,
      data: { ...session.data, ...input.data },
      amount: session.amount as never,
      currency_code: session.currency_code,
    })
    return new StepResponse({ id: updated.id, status: updated.status })
  }
)

export const updatePayBrightSessionWorkflow = createWorkflow(
  "paybright-update-session",
  (input: SessionUpdate) => new WorkflowResponse(updatePayBrightSessionStep(input))
)

/**
 * Completes the cart under its lock, waiting at most `lock_timeout` seconds for another
 * completion to finish. Medusa's completion skips its own lock step when run inside a workflow
 * that holds it, so the Store API's completion and this one never run at once.
 */
export const placeApprovedOrderWorkflow = createWorkflow(
  "paybright-place-approved-order",
  (input: { cart_id: string; lock_timeout: number }) => {
    acquireLockStep({ key: input.cart_id, timeout: input.lock_timeout, ttl: 120 }).config({ name: CART_LOCK_STEP })
    const order = completeCartWorkflow.runAsStep({ input: { id: input.cart_id } })
    releaseLockStep({ key: input.cart_id })
    return new WorkflowResponse(order)
  }
)
