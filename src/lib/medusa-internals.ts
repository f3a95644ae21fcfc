import { container } from "@medusajs/framework"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"

/**
 * What the plugin reads of Medusa beyond what Medusa hands a plugin (a module's own container, a
 * provider's options and method inputs, a route's scope, the modules' public services), and
 * nowhere else: these are what a Medusa upgrade may change without notice.
 * `integration-tests/http/medusa-internals.suite.ts` checks each one against the Medusa installed,
 * so `npm test` and `npm run test:medusa-releases` fail on the release that changes one. Why each
 * is still needed is in docs/architecture.md, "What still reaches into Medusa".
 */

/**
 * The application's container, where every module and the query are registered. Medusa builds
 * each module's container apart, and a payment provider receives only the payment module's: the
 * provider reaches the plugin's module, the query and the cart module through this one.
 */
export function applicationContainer(): MedusaContainer {
  return container
}

/**
 * The key the payment module registered this provider under (`pp_<identifier>_<id>`), that is its
 * provider id, which Medusa does not tell a provider: the payment module lists the keys of its
 * providers under `payment_providers` in its container, the provider's `cradle`; the one holding
 * this very instance is its own. Undefined where the cradle is not the payment module's.
 */
export function providerKeyOf(
  cradle: Record<string, unknown>,
  provider: object,
  identifier: string
): string | undefined {
  const keys = registration<unknown>(cradle, PAYMENT_PROVIDERS)
  if (!Array.isArray(keys)) return undefined
  const prefix = `pp_${identifier}`
  return keys.find(
    (key): key is string => typeof key === "string" && key.startsWith(prefix) && registration(cradle, key) === provider
  )
}

/** The payment module's registration listing its providers' keys. */
export const PAYMENT_PROVIDERS = "payment_providers"

/**
 * A lock's lease where locks are `locking-postgres`: its row of Medusa's `locking` table, read
 * (never written: leases are given back through the locking module, see src/lib/expired-lease.ts).
 * `undefined` where the store's locks are kept elsewhere (Redis, memory), `null` when nobody holds
 * the key. Read because `locking-postgres` never lets a lease that has expired go by itself.
 */
export async function postgresLease(
  scope: Resolver,
  key: string
): Promise<{ owner: string | null; expired: boolean } | null | undefined> {
  if (!usesPostgresLocks(scope)) return undefined
  const pg = scope.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex
  const [row] = await pg(LOCKING_TABLE)
    .where("id", key)
    .select("owner_id", pg.raw("(expiration is not null and expiration < now()) as expired"))
  return row ? { owner: row.owner_id ?? null, expired: row.expired === true } : null
}

/** The table of `locking-postgres`'s Locking model: id (the key), owner_id, expiration. */
export const LOCKING_TABLE = "locking"

type Resolver = { resolve(key: string): unknown }

/**
 * Whether the locking module's default provider is `locking-postgres`: the module service keeps
 * the default provider's id in `defaultProviderId`, which its public interface does not show.
 */
export function usesPostgresLocks(scope: Resolver): boolean {
  const locking = scope.resolve(Modules.LOCKING) as { defaultProviderId?: unknown }
  return String(locking.defaultProviderId ?? "").includes("locking-postgres")
}

/** A registration of an awilix cradle, or undefined where there is none (the cradle throws). */
function registration<T>(cradle: Record<string, unknown>, key: string): T | undefined {
  try {
    return (cradle[key] as T | undefined) ?? undefined
  } catch {
    return undefined
  }
}
