import { setTimeout as sleep } from "node:timers/promises"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

export const acquireLockOrConflictStepId = "paybright-acquire-lock-or-conflict-step"

export type AcquireLockOrConflictInput = { key: string; owner: string; timeout: number; ttl: number }

/** How often a waiter asks again: the second of the callback and the return must not lag the first. */
const RETRY_MS = 50

/**
 * Medusa's acquireLockStep, with a lock held elsewhere told by its error's type: a CONFLICT
 * MedusaError, whatever the locking provider throws (locking-postgres throws a bare Error). Its
 * caller answers "busy, deliver again" for that type alone. Taken in the workflow that owns the
 * lock, never in a sub-workflow. Compensation gives the lock back.
 */
export const acquireLockOrConflictStep = createStep(
  acquireLockOrConflictStepId,
  async (input: AcquireLockOrConflictInput, { container }) => {
    const locking = container.resolve(Modules.LOCKING)
    const until = Date.now() + input.timeout * 1000
    for (;;) {
      try {
        await locking.acquire(input.key, { ownerId: input.owner, expire: input.ttl })
        return new StepResponse(undefined, { key: input.key, owner: input.owner })
      } catch {
        if (Date.now() >= until) {
          throw new MedusaError(MedusaError.Types.CONFLICT, `${input.key} is held by another request`)
        }
      }
      await sleep(RETRY_MS)
    }
  },
  async (taken: { key: string; owner: string } | undefined, { container }) => {
    if (taken) await container.resolve(Modules.LOCKING).release(taken.key, { ownerId: taken.owner })
  }
)
