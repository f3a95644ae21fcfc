import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { messageOf } from "../lib/texts/log-text"
import { pluginRecords } from "../lib/plugin-records"
import type { ApprovalRecord } from "../lib/approval-record"
import { releaseOrphanedApprovalWorkflow } from "../workflows/release-orphaned-approval"
import { allPages } from "../lib/all-pages"
import { finalBefore, orphanReleaseTimes } from "../lib/orphan-timing"

export type OrphansReleased = { released: number; notReleased: number }

/**
 * An orphaned approval, once final, is voided at the lender so the shopper carries no loan for
 * goods they will never receive: once (an orphan whose release was refused or is in doubt waits
 * for a person, in "needs attention"), in in-store mode (the lender's order-management API does
 * not cover virtual cards), and unless the registration's `releaseOrphans` is off.
 */
export async function releaseFinalOrphans(container: MedusaContainer, now = Date.now()): Promise<OrphansReleased> {
  const logger = container.resolve("logger") as Logger
  const service = pluginRecords(container)
  const releaseTime = await orphanReleaseTimes(container, now)
  const finalSince = new Date(await finalBefore(container, now))
  const orphans = (
    (await allPages((paging) =>
      service.listPayBrightApprovals(
        { state: "orphaned", created_at: { $lt: finalSince } },
        { order: { created_at: "ASC" }, ...paging }
      )
    )) as ApprovalRecord[]
  ).filter((orphan) => releaseTime(orphan) !== undefined)
  if (orphans.length === 0) return { released: 0, notReleased: 0 }
  // A release refused, in doubt or under way waits for a person or its own end; a contract already
  // voided (its payment cancelled by Medusa, say) only needs its approval to read released.
  const attempted = new Set(
    (
      (await service.listPayBrightMoneyRecords(
        { kind: "void", contract: orphans.map((orphan) => orphan.contract), state: ["pending", "refused", "in_doubt"] },
        { select: ["contract"] }
      )) as { contract: string }[]
    ).map((record) => record.contract)
  )
  const outcome: OrphansReleased = { released: 0, notReleased: 0 }
  for (const orphan of orphans.filter((candidate) => !attempted.has(candidate.contract))) {
    try {
      const { result } = await releaseOrphanedApprovalWorkflow(container).run({ input: { approval_id: orphan.id } })
      if (result.released?.outcome === "done") outcome.released++
      else if (result.released) outcome.notReleased++
    } catch (error) {
      // One contract that cannot be released now must not hold up the others; the next run tries again.
      logger.warn(`PayBright: contract ${orphan.contract} could not be released this time: ${messageOf(error)}`)
    }
  }
  return outcome
}
