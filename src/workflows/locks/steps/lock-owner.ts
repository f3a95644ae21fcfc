import { randomUUID } from "node:crypto"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

/**
 * Readies a lock this workflow is about to take, and answers the owner to take it with: made once
 * per run and kept with the run's steps, so the release names the same owner as the acquisition.
 *
 * Two gaps of `locking-postgres` (Medusa 2.21) make this step necessary:
 * - it grants a free key taken without an owner to two callers that take it at the same instant,
 *   so every plugin lock carries an owner;
 * - it never lets anyone take over a lease that has expired, so a process killed while holding a
 *   lock would block that key for good: an expired lease on the key is removed first.
 */
export const lockOwnerStep = createStep(
  "paybright-lock-owner-step",
  async (input: { key?: string | string[] }, { container }) => {
    const keys = input.key === undefined ? [] : [input.key].flat()
    if (keys.length && usesPostgresLocks(container)) {
      const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
      await pg("locking").whereIn("id", keys).whereNotNull("expiration").where("expiration", "<", pg.fn.now()).delete()
    }
    return new StepResponse(`paybright:${randomUUID()}`)
  }
)

function usesPostgresLocks(container: { resolve(key: string): unknown }): boolean {
  const locking = container.resolve(Modules.LOCKING) as { defaultProviderId?: string }
  return String(locking.defaultProviderId ?? "").includes("locking-postgres")
}
