import type { MedusaContainer } from "@medusajs/framework/types"
import { KEPT_FOR_A_PERSON } from "../modules/paybright/approval-reasons"
import { providersInForce } from "./provider-registry"
import type { ApprovalRecord } from "./approval-record"

/** Added to the grace period, so a delivery still being handled is never decided from under it. */
const SWEEP_MARGIN_MINUTES = 5
/**
 * Approvals verified before this time are final: no delivery of theirs is still being handled, and
 * their grace period (virtualCardGraceMinutes, at least 10 minutes) and a margin are over.
 */
export async function finalBefore(container: MedusaContainer, now: number): Promise<number> {
  const graceMinutes = Math.max(
    10,
    ...(await providersInForce(container)).map(({ options }) => options.virtualCardGraceMinutes)
  )
  return now - (graceMinutes + SWEEP_MARGIN_MINUTES) * 60_000
}

/**
 * When the plugin voids each orphan by itself (once it is final), or undefined where it does
 * not (a virtual-card contract, which the lender's API cannot void, `voidOrphans` off, an
 * approval recorded before its registration was kept, a signed result the store could not use,
 * for which no approval is certain, an approval the store itself failed to place): what the
 * merchant is told to expect, or to do.
 */
export async function orphanVoidTimes(
  container: MedusaContainer,
  now = Date.now()
): Promise<(orphan: Pick<ApprovalRecord, "provider_id" | "created_at" | "reason" | "channel">) => Date | undefined> {
  const registrations = new Map(
    (await providersInForce(container)).map(({ providerId, options }) => [providerId, options])
  )
  // An orphan verified at finalBefore(now) is final now: each is voided this long after its verification.
  const delay = now - (await finalBefore(container, now))
  return (orphan) => {
    const options = orphan.provider_id ? registrations.get(orphan.provider_id) : undefined
    // The capture mode it was verified under; today's for rows from before that was kept.
    const mode = orphan.channel?.capture_mode ?? options?.captureMode
    return options?.voidOrphans && mode === "in_store" && !KEPT_FOR_A_PERSON.includes(orphan.reason ?? "")
      ? new Date(new Date(orphan.created_at).getTime() + delay)
      : undefined
  }
}
