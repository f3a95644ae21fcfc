import { setTimeout as sleep } from "node:timers/promises"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

export const acquireLockOrConflictStepId = "paybright-acquire-lock-or-conflict-step"

export type AcquireLockOrConflictInput = {
  /** One key, several taken together (an order's payments), or none: then nothing is taken. */
  key: string | string[] | undefined
  owner: string
  /** Seconds to wait for a holder to let go. */
  timeout: number
  /** Seconds the lease lasts. */
  ttl: number
  /**
   * Taken only by a workflow run on its own: run as another's step, the lock is its parent's, as
   * Medusa's acquireLockStep leaves it (takeLock's locks). Omitted, the lock is taken either way
   * (a placement's cart lock, which it holds and gives back itself).
   */
  only_at_top?: boolean
}

/**
 * How often a waiter asks again. Medusa's default, 0.3 s, would make the second of the lender's
 * callback and the shopper's return (which arrive together) wait up to 0.3 s longer than the first
 * one's work under the lock; each try is one short statement.
 */
const RETRY_MS = 50

type Taken = { keys: string[]; owner: string }

/**
 * Medusa's acquireLockStep, with a lock held elsewhere told by its error's type: a CONFLICT
 * MedusaError, whatever the locking provider throws (locking-postgres throws a bare Error), so that
 * a caller answers "busy" for that type alone, never by the step's name. Compensation gives the
 * lock back.
 */
export const acquireLockOrConflictStep = createStep(
  acquireLockOrConflictStepId,
  async (
    input: AcquireLockOrConflictInput,
    { container, parentStepIdempotencyKey }
  ): Promise<StepResponse<undefined, Taken>> => {
    const keys = input.key === undefined || (input.only_at_top && parentStepIdempotencyKey) ? [] : [input.key].flat()
    if (!keys.length) return new StepResponse(undefined, { keys, owner: input.owner })
    const locking = container.resolve(Modules.LOCKING)
    const until = Date.now() + input.timeout * 1000
    for (;;) {
      try {
        await locking.acquire(keys, { ownerId: input.owner, expire: input.ttl })
        return new StepResponse(undefined, { keys, owner: input.owner })
      } catch {
        if (Date.now() >= until) {
          throw new MedusaError(
            MedusaError.Types.CONFLICT,
            `waited ${input.timeout} s for another request to let go of the lock`
          )
        }
      }
      await sleep(RETRY_MS)
    }
  },
  async (taken: Taken | undefined, { container }) => {
    if (taken?.keys.length) await container.resolve(Modules.LOCKING).release(taken.keys, { ownerId: taken.owner })
  }
)
