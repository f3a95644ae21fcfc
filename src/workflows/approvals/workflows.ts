import { acquireLockStep, completeCartWorkflow, releaseLockStep } from "@medusajs/core-flows"
import {
  createStep,
  createWorkflow,
  StepResponse,
  transform,
  when,
  WorkflowResponse,
} from "@medusajs/framework/workflows-sdk"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { PAYBRIGHT_MODULE } from "../../modules/paybright"
import type PayBrightModuleService from "../../modules/paybright/service"
import type { OrphanReason } from "../../messages/approval-messages"
import {
  markApprovalHandledStep,
  markApprovalOrderedStep,
  orphanApprovalStep,
  orphanUnlessOrderedStep,
  recordApprovalStep,
  type RecordApprovalInput,
} from "./steps"
import { lockTtlSeconds } from "../lock-lease"
import { lockOwnerStep } from "../steps/lock-owner"
import { approvalLockKey } from "../steps/release-contract"

/** The name of the step that waits for the cart's lock: its failure means another completion holds it. */
export const CART_LOCK_STEP = "paybright-lock-cart"

/** Records a verified approval (or finds it), under the lock of its payment session. */
export const recordApprovalWorkflow = createWorkflow("paybright-record-approval", (input: RecordApprovalInput) => {
  const key = transform({ input }, ({ input }) => `paybright-approval:${input.session_id}`)
  const owner = lockOwnerStep({ key })
  acquireLockStep({ key, ownerId: owner, timeout: 15, ttl: 30 })
  const recorded = recordApprovalStep(input)
  releaseLockStep({ key, ownerId: owner })
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
 * A session already authorized is left alone; an approval no longer open stops here.
 */
const updatePayBrightSessionStep = createStep(
  "paybright-update-session",
  async (input: SessionUpdate & { approval_id?: string }, { container }) => {
    if (input.approval_id) {
      const approval = await (container.resolve(PAYBRIGHT_MODULE) as PayBrightModuleService).retrievePayBrightApproval(
        input.approval_id
      )
      if (approval.state !== "approved") {
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `PayBright contract ${approval.contract} is ${approval.state}`
        )
      }
    }
    const payments = container.resolve(Modules.PAYMENT)
    const [session] = await payments.listPaymentSessions(
      { id: input.session_id },
      { select: ["id", "amount", "currency_code", "data", "status"] }
    )
    if (!session || session.status === "authorized") {
      return new StepResponse({ id: input.session_id, updated: false })
    }
    await payments.updatePaymentSession({
      id: session.id,
      data: { ...session.data, ...input.data },
      amount: session.amount as never,
      currency_code: session.currency_code,
    })
    return new StepResponse({ id: session.id, updated: true })
  }
)

export const updatePayBrightSessionWorkflow = createWorkflow(
  "paybright-update-session",
  (input: SessionUpdate) => new WorkflowResponse(updatePayBrightSessionStep(input))
)

/**
 * Under the cart's lock (waiting at most `lock_timeout` seconds for another completion), records
 * the verified result on the session and completes the cart. Medusa's completion skips its own
 * lock step inside a workflow that holds it, so the Store API's completion, the callback and the
 * return never complete or touch the session at once.
 */
export const placeApprovedOrderWorkflow = createWorkflow(
  "paybright-place-approved-order",
  (input: { cart_id: string; lock_timeout: number; approval_id: string; session: SessionUpdate }) => {
    // The key the Store API's completion uses, with an owner (see lockOwnerStep).
    const owner = lockOwnerStep({ key: input.cart_id })
    acquireLockStep({
      key: input.cart_id,
      ownerId: owner,
      timeout: input.lock_timeout,
      // Completion may read the virtual card, with its retries: as long as a capture may take.
      ttl: transform({ input }, () => lockTtlSeconds()),
    }).config({
      name: CART_LOCK_STEP,
    })
    const update = transform({ input }, ({ input }) => ({ ...input.session, approval_id: input.approval_id }))
    updatePayBrightSessionStep(update).config({ name: "paybright-record-result-on-session" })
    const order = completeCartWorkflow.runAsStep({ input: { id: input.cart_id } })
    releaseLockStep({ key: input.cart_id, ownerId: owner })
    return new WorkflowResponse(order)
  }
)

/**
 * An approval whose time is up (the grace period is over, or its completion failed for good):
 * decided under its cart's lock, the one Medusa's completion takes, so no storefront or lender
 * delivery completes the cart meanwhile. An orphan is withdrawn from its session, so nothing may
 * place an order on it later.
 */
export const orphanUnplacedApprovalWorkflow = createWorkflow(
  "paybright-orphan-unplaced-approval-workflow",
  (input: {
    approval_id: string
    cart_id: string | null
    session_id: string
    reason: OrphanReason
    lock_timeout: number
  }) => {
    const key = transform({ input }, ({ input }) => approvalLockKey(input))
    const owner = lockOwnerStep({ key })
    acquireLockStep({
      key,
      ownerId: owner,
      timeout: input.lock_timeout,
      ttl: transform({ input }, () => lockTtlSeconds()),
    }).config({ name: CART_LOCK_STEP })
    const approval = orphanUnlessOrderedStep({ approval_id: input.approval_id, reason: input.reason })
    when({ approval }, ({ approval }) => approval.state === "orphaned").then(() => {
      updatePayBrightSessionStep(
        transform({ input }, ({ input }) => ({ session_id: input.session_id, data: { paybright_status: "expired" } }))
      ).config({ name: "paybright-withdraw-approval-from-session" })
    })
    releaseLockStep({ key, ownerId: owner })
    return new WorkflowResponse(approval)
  }
)
