import { randomUUID } from "node:crypto"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { clearExpiredLeases } from "../../lib/expired-lease"

/**
 * Readies a lock this workflow is about to take, and answers the owner to take it with: made once
 * per run and kept with the run's steps, so giving it back names the same owner as taking it.
 *
 * Two gaps of `locking-postgres` (Medusa 2.21) make this step necessary:
 * - it grants a free key taken without an owner to two callers that take it at the same instant,
 *   so every plugin lock carries an owner;
 * - it never lets anyone take over a lease that has expired (see clearExpiredLeases).
 */
export const lockOwnerStep = createStep(
  "paybright-lock-owner-step",
  async (input: { key?: string | string[] }, { container }) => {
    await clearExpiredLeases(container, input.key === undefined ? [] : [input.key].flat())
    return new StepResponse(`paybright:${randomUUID()}`)
  }
)
