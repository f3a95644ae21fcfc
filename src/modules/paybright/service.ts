import type { Context, InferTypeOf } from "@medusajs/framework/types"
import { InjectTransactionManager, MedusaContext, MedusaError, MedusaService } from "@medusajs/framework/utils"
import { type OrphanReason, supersedes } from "./approval-reasons"
import { PayBrightApproval } from "./models/paybright-approval"
import { PayBrightCardTransaction } from "./models/paybright-card-transaction"
import { PayBrightEvent } from "./models/paybright-event"
import { PayBrightMoneyRecord } from "./models/paybright-money-record"
import { PayBrightSettings } from "./models/paybright-settings"

export type ApprovalRow = InferTypeOf<typeof PayBrightApproval>

/** What the merchant reads of an orphan, written by the layer that knows the store's settings. */
export type DescribeOrphan = (approval: ApprovalRow) => Promise<string> | string

/** A verified approval as a delivery brings it. */
export type VerifiedApproval = {
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
  /** The channel the registration verified it under: its release goes through it. */
  channel: Record<string, unknown>
}

/** What an approval's move changed, for the step's compensation to put back. */
export type ApprovalBefore = Pick<ApprovalRow, "id" | "state" | "reason" | "placement_error" | "order_id">

/**
 * The plugin's own records: every capture and refund, the virtual card's movements, the contracts
 * the lender approved, the event log of each payment, and the settings saved in the admin.
 *
 * It is the one writer of an approval's row: the rules of which state may move where live in the
 * moves below, and a move the merchant reads of writes its event row in the same transaction, so
 * the timeline never misses one.
 */
export default class PayBrightModuleService extends MedusaService({
  PayBrightMoneyRecord,
  PayBrightCardTransaction,
  PayBrightApproval,
  PayBrightEvent,
  PayBrightSettings,
}) {
  /**
   * A contract's approval verified: its row written the first time (an orphan from the start when
   * it cannot become an order, or when its session already has a live approval), found on a
   * repeat, or replaced when a usable result follows one the store could not use.
   */
  @InjectTransactionManager()
  async recordVerifiedApproval(
    input: VerifiedApproval,
    describeOrphan: DescribeOrphan,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ approval: ApprovalRow; created: boolean; orphaned: string | null }> {
    const [existing] = await this.listPayBrightApprovals({ contract: input.contract }, {}, sharedContext)
    if (existing && !supersedes(existing, input)) {
      return { approval: existing, created: false, orphaned: null }
    }
    const others = await this.listPayBrightApprovals(
      { session_id: input.session_id, state: ["approved", "ordered"] },
      {},
      sharedContext
    )
    const reason = input.orphan_reason ?? (others.length > 0 ? "second_contract" : null)
    const state = reason ? ("orphaned" as const) : ("approved" as const)
    const approval = existing
      ? await this.updatePayBrightApprovals(
          {
            id: existing.id,
            session_id: input.session_id,
            cart_id: input.cart_id,
            lender_result: input.lender_result,
            channel: input.channel,
            state,
            reason,
          },
          sharedContext
        )
      : await this.createPayBrightApprovals(
          {
            ...createdNow(),
            contract: input.contract,
            session_id: input.session_id,
            provider_id: input.provider_id,
            cart_id: input.cart_id,
            amount: input.amount,
            currency_code: input.currency_code,
            lender_result: input.lender_result,
            channel: input.channel,
            state,
            reason,
          },
          sharedContext
        )
    if (!existing) {
      await this.createPayBrightEvents(
        {
          kind: "approval.verified",
          contract: approval.contract,
          actor: "lender",
          message: `PayBright approved contract ${approval.contract} for ${approval.amount} ${approval.currency_code}.`,
          details: { session_id: approval.session_id, cart_id: approval.cart_id, approval_id: approval.id },
        },
        sharedContext
      )
    }
    const orphaned = reason ? await this.writeOrphanEvent(approval, describeOrphan, sharedContext) : null
    return { approval, created: !existing, orphaned }
  }

  /**
   * An approval that will not become an order. Only one still `approved` moves; any other is
   * answered as it stands. `orphaned` is what the merchant was told, when it moved.
   */
  @InjectTransactionManager()
  async orphanApproval(
    id: string,
    orphan: { reason: OrphanReason; placement_error?: string | null },
    describeOrphan: DescribeOrphan,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ approval: ApprovalRow; before: ApprovalBefore | null; orphaned: string | null }> {
    const current = await this.retrievePayBrightApproval(id, {}, sharedContext)
    if (current.state !== "approved") return { approval: current, before: null, orphaned: null }
    const approval = await this.updatePayBrightApprovals(
      {
        id,
        state: "orphaned",
        reason: orphan.reason,
        ...(orphan.placement_error !== undefined ? { placement_error: orphan.placement_error } : {}),
      },
      sharedContext
    )
    const orphaned = await this.writeOrphanEvent(approval, describeOrphan, sharedContext)
    return { approval, before: beforeOf(current), orphaned }
  }

  /** The order an approval became. */
  @InjectTransactionManager()
  async markApprovalOrdered(
    id: string,
    orderId: string,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ approval: ApprovalRow; before: ApprovalBefore }> {
    const current = await this.retrievePayBrightApproval(id, {}, sharedContext)
    const approval = await this.updatePayBrightApprovals({ id, state: "ordered", order_id: orderId }, sharedContext)
    return { approval, before: beforeOf(current) }
  }

  /** An approval marked ordered whose order no longer exists is approved again. */
  @InjectTransactionManager()
  async reopenApproval(
    id: string,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ approval: ApprovalRow; before: ApprovalBefore | null }> {
    const current = await this.retrievePayBrightApproval(id, {}, sharedContext)
    if (current.state !== "ordered") return { approval: current, before: null }
    const approval = await this.updatePayBrightApprovals({ id, state: "approved", order_id: null }, sharedContext)
    return { approval, before: beforeOf(current) }
  }

  /** An orphan whose contract was voided at the lender: the shopper's loan is released. */
  @InjectTransactionManager()
  async markApprovalReleased(contract: string, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    const [approval] = await this.listPayBrightApprovals({ contract }, {}, sharedContext)
    if (approval?.state !== "orphaned") return
    await this.updatePayBrightApprovals({ id: approval.id, state: "released" }, sharedContext)
    await this.createPayBrightEvents(
      {
        kind: "approval.released",
        contract: approval.contract,
        actor: "system",
        message: `Contract ${approval.contract} (${approval.amount} ${approval.currency_code}) was voided at PayBright: the shopper's loan is released.`,
        details: { approval_id: approval.id },
      },
      sharedContext
    )
  }

  /** The merchant cancelled an orphan's contract in the PayBright portal; a repeat finds it handled. */
  @InjectTransactionManager()
  async markApprovalHandled(
    id: string,
    actor: string,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<ApprovalRow> {
    const [current] = await this.listPayBrightApprovals({ id }, {}, sharedContext)
    if (!current) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `PayBright approval ${id} was not found`)
    }
    if (current.state === "handled") return current
    if (current.state !== "orphaned") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `PayBright contract ${current.contract} is ${current.state}, not orphaned: there is nothing to handle`
      )
    }
    const approval = await this.updatePayBrightApprovals(
      { id, state: "handled", handled_by: actor, handled_at: new Date() },
      sharedContext
    )
    await this.createPayBrightEvents(
      {
        kind: "approval.handled",
        contract: approval.contract,
        actor,
        message: `Contract ${approval.contract} was marked as cancelled in the PayBright portal.`,
        details: { approval_id: approval.id },
      },
      sharedContext
    )
    return approval
  }

  /** Puts an approval back as it was before a move a workflow then undid; its event rows stay. */
  @InjectTransactionManager()
  async restoreApproval(before: ApprovalBefore, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    await this.updatePayBrightApprovals(before, sharedContext)
  }

  private async writeOrphanEvent(
    approval: ApprovalRow,
    describeOrphan: DescribeOrphan,
    sharedContext: Context
  ): Promise<string> {
    const message = await describeOrphan(approval)
    await this.createPayBrightEvents(
      {
        kind: "approval.orphaned",
        contract: approval.contract,
        message,
        details: {
          approval_id: approval.id,
          session_id: approval.session_id,
          cart_id: approval.cart_id,
          reason: approval.reason,
        },
      },
      sharedContext
    )
    return message
  }
}

function beforeOf(approval: ApprovalRow): ApprovalBefore {
  const { id, state, reason, placement_error, order_id } = approval
  return { id, state, reason, placement_error, order_id }
}

/**
 * The row's creation time, set here rather than by the database: a row created in a transaction is
 * written when the transaction ends, and its grace period and its orphan's message are measured
 * from it before that. The generated create method does not declare the column it accepts.
 */
function createdNow(): object {
  return { created_at: new Date() }
}
