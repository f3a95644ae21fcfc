import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"

type Resolver = { resolve(key: string): unknown }

/**
 * Removes an expired lease on these keys, where locks are `locking-postgres` (Medusa 2.21): it never
 * lets anyone take over a lease that has expired, so a process killed while holding a lock would
 * block that key for good. Elsewhere (`locking-redis`, in memory) a lease lapses by itself.
 */
export async function clearExpiredLeases(container: Resolver, keys: string[]): Promise<void> {
  if (keys.length === 0 || !usesPostgresLocks(container)) return
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex
  await pg("locking").whereIn("id", keys).whereNotNull("expiration").where("expiration", "<", pg.fn.now()).delete()
}

/**
 * Whether someone holds the lock on this key now, read where locks are `locking-postgres` (a row
 * of its table, after clearExpiredLeases); undefined elsewhere. Read rather than taken for an
 * instant: a lock taken there and not given back (the database blinked) never lapses, and would
 * block every later taker of the key, Medusa's own workflows included.
 */
export async function leaseHeld(container: Resolver, key: string): Promise<boolean | undefined> {
  if (!usesPostgresLocks(container)) return undefined
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex
  const [row] = await pg("locking").where("id", key).select("id")
  return !!row
}

function usesPostgresLocks(container: Resolver): boolean {
  const locking = container.resolve(Modules.LOCKING) as { defaultProviderId?: string }
  return String(locking.defaultProviderId ?? "").includes("locking-postgres")
}
