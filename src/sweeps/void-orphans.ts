import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { messageOf } from "../lib/texts/log-text"
import { pluginRecords } from "../lib/plugin-records"
import type { ApprovalRecord } from "../lib/approval-record"
import { voidOrphanedApprovalWorkflow } from "../workflows/void-orphaned-approval"
import { allPages } from "../lib/all-pages"
import { finalBefore, orphanVoidTimes } from "../lib/orphan-timing"

export type OrphansVoided = { voided: number; notVoided: number }

/**
 * An orphaned approval, once final, is voided at the lender so the shopper carries no loan for
 * goods they will never receive: once (an orphan whose void was refused or is in doubt waits
 * for a person, in "needs attention"), in in-store mode (the lender's order-management API does
 * not cover virtual cards), and unless the registration's `voidOrphans` is off.
 */
export async function voidFinalOrphans(container: MedusaContainer, now = Date.now()): Promise<OrphansVoided> {
  const logger = container.resolve("logger") as Logger
  const service = pluginRecords(container)
  const voidTime = await orphanVoidTimes(container, now)
  const finalSince = new Date(await finalBefore(container, now))
  const orphans = (
    (await allPages((paging) =>
      service.listPayBrightApprovals(
        { state: "orphaned", created_at: { $lt: finalSince } },
        { order: { created_at: "ASC" }, ...paging }
      )
    )) as ApprovalRecord[]
  ).filter((orphan) => voidTime(orphan) !== undefined)
  if (orphans.length === 0) return { voided: 0, notVoided: 0 }
  // A void refused, in doubt or under way waits for a person or its own end; a contract already
  // voided (its payment cancelled by Medusa, say) only needs its approval to read voided.
  const attempted = new Set(
    (
      (await service.listPayBrightMoneyRecords(
        { kind: "void", contract: orphans.map((orphan) => orphan.contract), state: ["pending", "refused", "in_doubt"] },
        { select: ["contract"] }
      )) as { contract: string }[]
    ).map((record) => record.contract)
  )
  const outcome: OrphansVoided = { voided: 0, notVoided: 0 }
  for (const orphan of orphans.filter((candidate) => !attempted.has(candidate.contract))) {
    try {
      const { result } = await voidOrphanedApprovalWorkflow(container).run({ input: { approval_id: orphan.id } })
      if (result.voided?.outcome === "done") outcome.voided++
      else if (result.voided) outcome.notVoided++
    } catch (error) {
      // One contract that cannot be voided now must not hold up the others; the next run tries again.
      logger.warn(`PayBright: contract ${orphan.contract} could not be voided this time: ${messageOf(error)}`)
    }
  }
  return outcome
}
