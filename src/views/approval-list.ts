import type { MedusaContainer } from "@medusajs/framework/types"
import { pluginRecords } from "../lib/plugin-records"
import type { PayBrightApprovalRecord } from "../lib/admin-types"
import type { ApprovalRecord } from "../lib/approval-record"
import { orphanMessage } from "../lib/approval-messages"
import { spoken, type Said } from "../lib/texts/said"
import { orphanVoidTimes } from "../lib/orphan-timing"

/**
 * An approval as the admin reads it; an orphan also says what happened and what to do
 * (`voidAt`: when the plugin voids it by itself, see orphanVoidTimes).
 */
export function toAdminApproval(
  approval: ApprovalRecord,
  voidAt?: Date
): PayBrightApprovalRecord & { message: string | null; said: Said | null } {
  return {
    id: approval.id,
    contract: approval.contract,
    session_id: approval.session_id,
    cart_id: approval.cart_id,
    order_id: approval.order_id,
    amount: approval.amount,
    currency_code: approval.currency_code,
    state: approval.state,
    reason: approval.reason,
    created_at: new Date(approval.created_at).toISOString(),
    ...(approval.state === "orphaned" ? spoken(orphanMessage(approval, voidAt)) : { message: null, said: null }),
  }
}

/** The approvals in a state (all when none is given), newest first, a page at a time. */
export async function listApprovals(
  scope: MedusaContainer,
  query: { state?: ApprovalRecord["state"]; limit: number; offset: number }
) {
  const service = pluginRecords(scope)
  const [approvals, count] = await service.listAndCountPayBrightApprovals(query.state ? { state: query.state } : {}, {
    take: query.limit,
    skip: query.offset,
    order: { created_at: "DESC" },
  })
  const voidTime = await orphanVoidTimes(scope)
  return {
    approvals: (approvals as ApprovalRecord[]).map((approval) => toAdminApproval(approval, voidTime(approval))),
    count,
    limit: query.limit,
    offset: query.offset,
  }
}
