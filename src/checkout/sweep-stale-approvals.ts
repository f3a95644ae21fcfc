import type { MedusaContainer } from "@medusajs/framework/types"
import { PAYBRIGHT_MODULE } from "../modules/paybright"
import type PayBrightModuleService from "../modules/paybright/service"
import {
  markApprovalOrderedWorkflow,
  orphanApprovalWorkflow,
  updatePayBrightSessionWorkflow,
  type ApprovalRecord,
} from "../workflows/approvals"
import { livePayments, placeOf } from "./find-checkout"
import { payBrightRegistrations } from "./provider-settings"

/** Added to the grace period, so a delivery still being handled is never swept from under it. */
const SWEEP_MARGIN_MINUTES = 5

/**
 * The safety net behind the callback's redeliveries: an approval still without an order once the
 * grace period (virtualCardGraceMinutes, plus a margin) is over, because the lender stopped
 * delivering or the server stopped mid-completion, is settled: ordered if its order exists after
 * all, otherwise reported to the merchant as an orphan.
 */
export async function sweepStaleApprovals(container: MedusaContainer): Promise<{ ordered: number; orphaned: number }> {
  const graceMinutes = Math.max(
    10,
    ...(await payBrightRegistrations(container)).map(({ options }) => options.virtualCardGraceMinutes)
  )
  const before = new Date(Date.now() - (graceMinutes + SWEEP_MARGIN_MINUTES) * 60_000)
  const service = container.resolve(PAYBRIGHT_MODULE) as PayBrightModuleService
  const stale = (await service.listPayBrightApprovals(
    { state: "approved", created_at: { $lt: before } },
    { take: 100, order: { created_at: "ASC" } }
  )) as ApprovalRecord[]
  let ordered = 0
  for (const approval of stale) {
    const { orderId } = approval.cart_id ? await placeOf(container, approval.cart_id) : { orderId: undefined }
    const payments = orderId ? await livePayments(container, { payment_session_id: approval.session_id }) : []
    if (orderId && payments.some((payment) => payment.contract === approval.contract)) {
      await markApprovalOrderedWorkflow(container).run({ input: { approval_id: approval.id, order_id: orderId } })
      ordered++
    } else {
      await orphanApprovalWorkflow(container).run({ input: { approval_id: approval.id, reason: "completion_failed" } })
      // Nothing may place an order on it later: the session no longer holds the approval.
      await updatePayBrightSessionWorkflow(container).run({
        input: { session_id: approval.session_id, data: { paybright_status: "expired" } },
      })
    }
  }
  return { ordered, orphaned: stale.length - ordered }
}
