import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { messageOf } from "../lib/texts/log-text"
import { pluginRecords } from "../lib/plugin-records"
import { reopenVanishedOrderWorkflow } from "../workflows"
import type { ApprovalRecord } from "../lib/approval-record"

/**
 * How far back an approval marked ordered is checked for its order. A delivery can see an order
 * that the completion making it then undoes (a later step failed, a database connection dropped);
 * that happens within the completion's own run, seconds, so ten minutes of runs is ample.
 */
const VANISHED_WITHIN_MS = 10 * 60_000
/** Seconds to wait for the cart's lock; the next run tries again. */
const LOCK_WAIT_SECONDS = 5

/**
 * Approvals marked ordered lately whose order no longer exists are approved again, so the sweep
 * that follows places them or reports them: no approved contract stays "ordered" on nothing.
 * Answers how many were reopened.
 */
export async function reopenVanishedOrders(container: MedusaContainer, now = Date.now()): Promise<number> {
  const service = pluginRecords(container)
  const recent = (await service.listPayBrightApprovals(
    { state: "ordered", updated_at: { $gte: new Date(now - VANISHED_WITHIN_MS) } },
    { select: ["id", "contract", "cart_id", "session_id", "order_id"] }
  )) as ApprovalRecord[]
  const orderIds = recent.map((approval) => approval.order_id).filter((id): id is string => !!id)
  if (orderIds.length === 0) return 0
  const { data: orders } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "order", fields: ["id"], filters: { id: orderIds } })
  const existing = new Set(orders.map((order: { id: string }) => order.id))
  let reopened = 0
  for (const approval of recent.filter((approval) => approval.order_id && !existing.has(approval.order_id))) {
    try {
      const { result } = await reopenVanishedOrderWorkflow(container).run({
        input: {
          approval_id: approval.id,
          cart_id: approval.cart_id,
          session_id: approval.session_id,
          lock_timeout: LOCK_WAIT_SECONDS,
        },
      })
      if ((result as ApprovalRecord).state === "approved") {
        reopened++
        container
          .resolve<Logger>("logger")
          .warn(
            `PayBright: order ${approval.order_id} of contract ${approval.contract} no longer exists; the contract is placed again or reported`
          )
      }
    } catch (error) {
      container
        .resolve<Logger>("logger")
        .warn(`PayBright: contract ${approval.contract} could not be checked this time: ${messageOf(error)}`)
    }
  }
  return reopened
}
