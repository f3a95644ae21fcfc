import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { messageOf } from "../lib/texts/log-text"
import { pluginRecords } from "../lib/plugin-records"
import { orphanUnplacedApprovalWorkflow } from "../workflows"
import type { ApprovalRecord } from "../lib/approval-record"
import { handleApplicationResult } from "../workflows/handle-application-result"
import { finalBefore } from "../lib/orphan-timing"
import { reopenVanishedOrders } from "./reopen-vanished-orders"

/** Approvals younger than this are left to the deliveries still in flight: the lender's retries, the shopper's return. */
const REDELIVER_AFTER_MS = 60_000
/** Seconds a redelivery waits for a completion another request is running; the next run tries again. */
const REDELIVERY_LOCK_WAIT_SECONDS = 5
/** Approvals looked at per run, oldest first. */
const BATCH = 50

export type UnplacedApprovalsSwept = { reopened: number; placed: number; orphaned: number; waiting: number }

/**
 * The store's own retry behind the lender's. An approval still without an order a minute after it
 * was verified is delivered to the store again, from the signed result it arrived with, through
 * the path the callback takes: a completion that failed for a moment (a lock held too long by
 * another process, a virtual card not shown yet) is tried again even when the lender has stopped
 * delivering. Once the grace period (virtualCardGraceMinutes) and a margin are over, an approval
 * still without an order is decided for good: ordered if its order exists after all, otherwise
 * reported to the merchant as an orphan. An approval whose order vanished since it was marked
 * ordered is reopened first, and swept with the others.
 */
export async function sweepUnplacedApprovals(
  container: MedusaContainer,
  now = Date.now()
): Promise<UnplacedApprovalsSwept> {
  const logger = container.resolve("logger") as Logger
  const service = pluginRecords(container)
  const reopened = await reopenVanishedOrders(container, now)
  const staleBefore = await finalBefore(container, now)
  const unplaced = (await service.listPayBrightApprovals(
    { state: "approved", created_at: { $lt: new Date(now - REDELIVER_AFTER_MS) } },
    { take: BATCH, order: { created_at: "ASC" } }
  )) as ApprovalRecord[]
  const swept: UnplacedApprovalsSwept = { reopened, placed: 0, orphaned: 0, waiting: 0 }
  for (const approval of unplaced) {
    let current = approval
    try {
      if (approval.lender_result) {
        await handleApplicationResult(
          container,
          approval.lender_result,
          { lockTimeoutSeconds: REDELIVERY_LOCK_WAIT_SECONDS },
          () => now
        )
        current = (await service.retrievePayBrightApproval(approval.id)) as ApprovalRecord
      }
      if (current.state === "approved" && new Date(current.created_at).getTime() < staleBefore) {
        current = await decideStale(container, current)
      }
    } catch (error) {
      // One approval that cannot be handled now must not hold up the others; the next run tries again.
      logger.warn(`PayBright: contract ${approval.contract} could not be decided this time: ${messageOf(error)}`)
    }
    if (current.state === "ordered") swept.placed++
    else if (current.state === "approved") swept.waiting++
    else swept.orphaned++
  }
  return swept
}

/**
 * Past the grace period: ordered if its order exists after all, otherwise an orphan kept for a
 * person (nothing refused the cart: a refusal would have decided it at its delivery); decided
 * under the cart's lock.
 */
async function decideStale(container: MedusaContainer, approval: ApprovalRecord): Promise<ApprovalRecord> {
  const { result } = await orphanUnplacedApprovalWorkflow(container).run({
    input: {
      approval_id: approval.id,
      cart_id: approval.cart_id,
      session_id: approval.session_id,
      reason: "not_placed",
      // Delivered again just now and still not placed: its cart was busy (a refusal or a failure
      // would have decided it then).
      placement_error: approval.lender_result
        ? "its cart was busy with another completion"
        : "the store kept no signed result to place it with",
      lock_timeout: REDELIVERY_LOCK_WAIT_SECONDS,
    },
  })
  return result as ApprovalRecord
}
