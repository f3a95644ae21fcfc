import type { ILockingModule } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { postgresLease } from "./medusa-internals"
import { paymentLockKey } from "./payment-lock"
import { lockTtlSeconds } from "./lock-lease"

type Resolver = { resolve(key: string): unknown }

/**
 * Gives back an expired lease on these keys, where locks are `locking-postgres`: it never lets
 * anyone take over a lease that has expired, so a process killed while holding a lock would block
 * that key for good. The lease is read (src/lib/medusa-internals.ts) and given back through the
 * locking module in its holder's name, as the holder would have: a lease taken again meanwhile has
 * another owner and stays. Elsewhere (`locking-redis`, in memory) a lease lapses by itself.
 */
export async function clearExpiredLeases(container: Resolver, keys: string[]): Promise<void> {
  for (const key of keys) {
    const lease = await postgresLease(container, key)
    if (!lease?.expired) continue
    await (container.resolve(Modules.LOCKING) as ILockingModule).release(key, { ownerId: lease.owner ?? undefined })
  }
}

/**
 * Whether someone holds the lock on this key now, read where locks are `locking-postgres` (after
 * clearExpiredLeases); undefined elsewhere. Read rather than taken for an instant: a lock taken
 * there and not given back (the database blinked) never lapses, and would block every later taker
 * of the key, Medusa's own workflows included.
 */
export async function leaseHeld(container: Resolver, key: string): Promise<boolean | undefined> {
  const lease = await postgresLease(container, key)
  return lease === undefined ? undefined : lease !== null
}

/**
 * Takes a payment's lock at once, without waiting, for work outside a workflow that must not run
 * beside one of its captures or refunds (the provider's cancellation of a payment an order change
 * replaces); answers the function that gives it back, or undefined while another holds it.
 */
export async function takePaymentLockNow(
  container: Resolver,
  paymentId: string,
  owner: string
): Promise<(() => Promise<void>) | undefined> {
  const key = paymentLockKey(paymentId)
  await clearExpiredLeases(container, [key])
  const locking = container.resolve(Modules.LOCKING) as ILockingModule
  try {
    await locking.acquire(key, { ownerId: owner, expire: lockTtlSeconds() })
  } catch {
    // Held, or the locking provider could not be asked: either way no one may take it as free.
    return undefined
  }
  return async () => {
    await locking.release(key, { ownerId: owner })
  }
}
