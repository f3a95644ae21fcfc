import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { MedusaError } from "@medusajs/framework/utils"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { orphanMessage, UNUSABLE_RESULTS, type OrphanReason } from "../../messages/approval-messages"
import { livePayments, placeOf } from "./find-checkout"
import { orphanReleaseTimes } from "./orphan-timing"
import { PAYBRIGHT_MODULE } from "../../modules/paybright"
import type PayBrightModuleService from "../../modules/paybright/service"
import type { PayBrightApprovalRecord } from "../../types/admin"

/** An approval row as the module answers it (dates as dates). */
export type ApprovalRecord = Omit<PayBrightApprovalRecord, "created_at"> & {
  created_at: Date | string
  /** The registration it was verified for; absent on rows written before it was kept. */
  provider_id?: string | null
  /** The signed result as it arrived; absent on rows written before it was kept. */
  lender_result?: Record<string, string> | null
}

export type RecordApprovalInput = {
  contract: string
  session_id: string
  /** The registration the approval was verified for: which credentials release it if it is orphaned. */
  provider_id: string
  cart_id: string | null
  amount: string
  currency_code: string
  /** The signed x_ fields as they arrived, to deliver them again (see PayBrightApproval). */
  lender_result: Record<string, string>
  /** Set when the approval can already not become an order (its session is gone, …). */
  orphan_reason?: OrphanReason | null
}

function approvalsOf(container: { resolve(key: string): unknown }) {
  return container.resolve(PAYBRIGHT_MODULE) as PayBrightModuleService
}

/**
 * Writes the row of a contract the first time its approval is verified; a repeat finds it. A
 * second contract for a session that already has one is an orphan from the start. Runs under the
 * session's lock, so two approvals racing on one session are both recorded, one as an orphan.
 */
export const recordApprovalStep = createStep(
  "paybright-record-approval",
  async (input: RecordApprovalInput, { container }) => {
    const service = approvalsOf(container)
    const [existing] = (await service.listPayBrightApprovals({ contract: input.contract })) as ApprovalRecord[]
    if (existing && !supersedes(existing, input)) {
      return new StepResponse({ approval: existing, created: false })
    }
    const others = await service.listPayBrightApprovals({
      session_id: input.session_id,
      state: ["approved", "ordered"],
    })
    const reason = input.orphan_reason ?? (others.length > 0 ? "second_contract" : null)
    if (existing) {
      // A usable result for a contract first seen in a result the store could not use: it counts now.
      const approval = (await service.updatePayBrightApprovals({
        id: existing.id,
        session_id: input.session_id,
        cart_id: input.cart_id,
        lender_result: input.lender_result,
        state: reason ? "orphaned" : "approved",
        reason,
      })) as ApprovalRecord
      if (reason) await reportOrphan(container, service, approval)
      return new StepResponse({ approval, created: false })
    }
    const approval = (await service.createPayBrightApprovals({
      contract: input.contract,
      session_id: input.session_id,
      provider_id: input.provider_id,
      cart_id: input.cart_id,
      amount: input.amount,
      currency_code: input.currency_code,
      lender_result: input.lender_result,
      state: reason ? "orphaned" : "approved",
      reason,
    })) as ApprovalRecord
    await service.createPayBrightEvents({
      kind: "approval.verified",
      contract: approval.contract,
      actor: "lender",
      message: `PayBright approved contract ${approval.contract} for ${approval.amount} ${approval.currency_code}.`,
      details: { session_id: approval.session_id, cart_id: approval.cart_id, approval_id: approval.id },
    })
    if (reason) {
      await reportOrphan(container, service, approval)
    }
    return new StepResponse({ approval, created: true })
  }
)

/** Whether a delivery's result replaces the row of its contract: a usable result after an unusable one. */
export function supersedes(
  existing: Pick<ApprovalRecord, "state" | "reason">,
  input: Pick<RecordApprovalInput, "orphan_reason">
) {
  const unusable = (reason: string | null | undefined) => (UNUSABLE_RESULTS as readonly string[]).includes(reason ?? "")
  return existing.state === "orphaned" && unusable(existing.reason) && !unusable(input.orphan_reason)
}

/** An approved contract that will not become an order: recorded once, logged once at error level. */
export const orphanApprovalStep = createStep(
  "paybright-orphan-approval",
  async (input: { approval_id: string; reason: OrphanReason }, { container }) => {
    const service = approvalsOf(container)
    const current = (await service.retrievePayBrightApproval(input.approval_id)) as ApprovalRecord
    if (current.state !== "approved") {
      return new StepResponse(current, undefined as string | undefined)
    }
    const approval = (await service.updatePayBrightApprovals({
      id: current.id,
      state: "orphaned",
      reason: input.reason,
    })) as ApprovalRecord
    await reportOrphan(container, service, approval)
    return new StepResponse(approval, current.id as string | undefined)
  },
  async (id: string | undefined, { container }) => {
    if (id) {
      await approvalsOf(container).updatePayBrightApprovals({ id, state: "approved", reason: null })
    }
  }
)

/** The order the approval became. */
export const markApprovalOrderedStep = createStep(
  "paybright-mark-approval-ordered",
  async (input: { approval_id: string; order_id: string }, { container }) => {
    const service = approvalsOf(container)
    const approval = (await service.updatePayBrightApprovals({
      id: input.approval_id,
      state: "ordered",
      order_id: input.order_id,
    })) as ApprovalRecord
    return new StepResponse(approval)
  }
)

/** The merchant cancelled the orphaned contract in the PayBright portal. */
export const markApprovalHandledStep = createStep(
  "paybright-mark-approval-handled",
  async (input: { approval_id: string; actor: string }, { container }) => {
    const service = approvalsOf(container)
    const [current] = (await service.listPayBrightApprovals({ id: input.approval_id })) as ApprovalRecord[]
    if (!current) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `PayBright approval ${input.approval_id} was not found`)
    }
    if (current.state === "handled") {
      return new StepResponse(current)
    }
    if (current.state !== "orphaned") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `PayBright contract ${current.contract} is ${current.state}, not orphaned: there is nothing to handle`
      )
    }
    const approval = (await service.updatePayBrightApprovals({
      id: current.id,
      state: "handled",
      handled_by: input.actor,
      handled_at: new Date(),
    })) as ApprovalRecord
    await service.createPayBrightEvents({
      kind: "approval.handled",
      contract: approval.contract,
      actor: input.actor,
      message: `Contract ${approval.contract} was marked as cancelled in the PayBright portal.`,
      details: { approval_id: approval.id },
    })
    return new StepResponse(approval)
  }
)

async function reportOrphan(
  container: { resolve(key: string): unknown },
  service: PayBrightModuleService,
  approval: ApprovalRecord
) {
  const message = orphanMessage(approval, (await orphanReleaseTimes(container as never))(approval))
  const logLine = `${message} [${approval.reason}]`
  await service.createPayBrightEvents({
    kind: "approval.orphaned",
    contract: approval.contract,
    message,
    details: {
      approval_id: approval.id,
      session_id: approval.session_id,
      cart_id: approval.cart_id,
      reason: approval.reason,
    },
  })
  ;(container.resolve("logger") as Logger).error(logLine)
}

/**
 * Under the cart's lock (as Medusa's completion takes it), once an approval's time is up: ordered
 * if an order holds its contract after all, otherwise an orphan. Another delivery that settled it
 * meanwhile is left alone.
 */
export const orphanUnlessOrderedStep = createStep(
  "paybright-orphan-unless-ordered-step",
  async (input: { approval_id: string; reason: OrphanReason }, { container }) => {
    const service = approvalsOf(container)
    const current = (await service.retrievePayBrightApproval(input.approval_id)) as ApprovalRecord
    if (current.state !== "approved") {
      return new StepResponse(current)
    }
    const scope = container as unknown as MedusaContainer
    const { orderId } = current.cart_id ? await placeOf(scope, current.cart_id) : { orderId: undefined }
    const payments = orderId ? await livePayments(scope, { payment_session_id: current.session_id }) : []
    if (orderId && payments.some((payment) => payment.contract === current.contract)) {
      const ordered = (await service.updatePayBrightApprovals({
        id: current.id,
        state: "ordered",
        order_id: orderId,
      })) as ApprovalRecord
      return new StepResponse(ordered)
    }
    const orphan = (await service.updatePayBrightApprovals({
      id: current.id,
      state: "orphaned",
      reason: input.reason,
    })) as ApprovalRecord
    await reportOrphan(container, service, orphan)
    return new StepResponse(orphan)
  }
)
