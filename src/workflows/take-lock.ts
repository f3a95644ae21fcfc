import { releaseLockStep } from "@medusajs/core-flows"
import { transform, type WorkflowData } from "@medusajs/framework/workflows-sdk"
import { lockTtlSeconds, lockWaitSeconds } from "../lib/lock-lease"
import { acquireLockOrConflictStep } from "./steps/acquire-lock-or-conflict"
import { lockOwnerStep } from "./steps/lock-owner"

type Seconds = WorkflowData<number> | number

type Renamable = { config(config: { name: string }): unknown }

/** One key, or several taken together (an order's payments). */
type LockKey = WorkflowData<string> | WorkflowData<string[]> | string | string[]

export type LockOptions = {
  /** Seconds to wait for a holder to let go; the store's lock wait (PAYBRIGHT_LOCK_WAIT_SECONDS) when omitted. */
  timeout?: Seconds
  /** Seconds the lease lasts; the store's lease (lockTtlSeconds) when omitted. */
  ttl?: Seconds
  /**
   * A request's own owner, for a lock held past this workflow and given back by another (an admin
   * route's guard). Omitted, an owner is made for this run.
   */
  owner?: WorkflowData<string> | string
  /** Names this lock's steps, for a workflow that takes a second lock after reading under the first. */
  name?: string
}

/**
 * In a workflow's composition: takes a plugin lock, the one recipe every PayBright lock follows.
 * lockOwnerStep first clears an expired lease on the key and makes an owner for the run (see why
 * there); the lock then waits and leases as the options, or the plugin's settings, say. Answers
 * the owner; `giveLock` gives it back at the end of the workflow (a failure gives it back by
 * compensation). Run as another workflow's step, it takes nothing, as Medusa's lock steps do: the
 * parent holds what it needs. A lock still held elsewhere when the wait ends fails the workflow
 * with a CONFLICT (`isBusy`), which its caller answers as busy.
 */
export function takeLock(key: LockKey, options: LockOptions = {}): WorkflowData<string> {
  const made = lockOwnerStep({ key: key as WorkflowData<string> })
  const owner = (options.owner ?? made) as WorkflowData<string>
  const taken = acquireLockOrConflictStep({
    key: key as WorkflowData<string | string[]>,
    owner,
    timeout: options.timeout ?? transform({ key }, () => lockWaitSeconds()),
    ttl: options.ttl ?? transform({ key }, () => lockTtlSeconds()),
    only_at_top: true,
  })
  if (options.name) {
    made.config({ name: `paybright-lock-owner-${options.name}` })
    // A step answering nothing is typed `never` with its `config`, which it has all the same.
    ;(taken as unknown as Renamable).config({ name: `paybright-acquire-lock-${options.name}` })
  }
  return owner
}

/**
 * Gives the lock back at the end of the workflow. `lapseOnFailure`: a failure to give it back does
 * not undo the workflow (its lease lapses instead), for a workflow whose last steps must never be
 * undone.
 */
export function giveLock(
  key: LockKey,
  owner: WorkflowData<string> | string,
  options: { lapseOnFailure?: boolean } = {}
) {
  const givenBack = releaseLockStep({ key: key as WorkflowData<string>, ownerId: owner as WorkflowData<string> })
  if (options.lapseOnFailure) givenBack.config({ continueOnPermanentFailure: true })
}
