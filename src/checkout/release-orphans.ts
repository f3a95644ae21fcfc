import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { messageOf } from "../lender/log-text"
import { PAYBRIGHT_MODULE } from "../modules/paybright"
import type PayBrightModuleService from "../modules/paybright/service"
import type { ApprovalRecord } from "../workflows/approvals/steps"
import { releaseOrphanedApprovalWorkflow } from "../workflows/release-contract"
import { allPages } from "../records/all-pages"
import { UNUSABLE_RESULTS } from "./approval-messages"
import { payBrightRegistrations } from "./provider-settings"
import { finalBefore } from "./settle-unplaced-approvals"

export type OrphansReleased = { released: number; notReleased: number }

/**
 * An orphaned approval, once final, is voided at the lender so the shopper carries no loan for
 * goods they will never receive: once (an orphan whose release was refused or is in doubt waits
 * for a person, in "needs attention"), in in-store mode (the lender's order-management API does
 * not cover virtual cards), and unless the registration's `releaseOrphans` is off.
 */
export async function releaseFinalOrphans(container: MedusaContainer, now = Date.now()): Promise<OrphansReleased> {
  const logger = container.resolve("logger") as Logger
  const service = container.resolve(PAYBRIGHT_MODULE) as PayBrightModuleService
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
  const attempted = new Set(
    (
      (await service.listPayBrightMoneyRecords(
        { kind: "void", contract: orphans.map((orphan) => orphan.contract) },
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

/** The registrations whose orphans the plugin releases by itself. */
async function releasingProviders(container: MedusaContainer): Promise<Set<string>> {
  return new Set(
    (await payBrightRegistrations(container))
      .filter(({ options }) => options.releaseOrphans && options.captureMode === "in_store")
      .map(({ providerId }) => providerId)
  )
}

/**
 * When the plugin releases each orphan by itself (once it is final), or undefined where it does
 * not (virtual card, `releaseOrphans` off, an approval recorded before its registration was kept,
 * a signed result the store could not use, for which no approval is certain): what the merchant is
 * told to expect, or to do.
 */
export async function orphanReleaseTimes(
  container: MedusaContainer,
  now = Date.now()
): Promise<(orphan: Pick<ApprovalRecord, "provider_id" | "created_at" | "reason">) => Date | undefined> {
  const releasing = await releasingProviders(container)
  // An orphan verified at finalBefore(now) is final now: each is released this long after its verification.
  const delay = now - (await finalBefore(container, now))
  return (orphan) =>
    orphan.provider_id &&
    releasing.has(orphan.provider_id) &&
    !(UNUSABLE_RESULTS as readonly string[]).includes(orphan.reason ?? "")
      ? new Date(new Date(orphan.created_at).getTime() + delay)
      : undefined
}
