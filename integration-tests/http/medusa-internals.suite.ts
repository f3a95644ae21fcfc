import type { AppSuite } from "../helpers/one-app"
import type { ILockingModule } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { randomUUID } from "node:crypto"
import { setTimeout as sleep } from "node:timers/promises"
import { clearExpiredLeases, leaseHeld } from "../../src/lib/expired-lease"
import {
  applicationContainer,
  PAYMENT_PROVIDERS,
  postgresLease,
  providerKeyOf,
  usesPostgresLocks,
} from "../../src/lib/medusa-internals"
import { PAYBRIGHT_MODULE } from "../../src/modules/paybright"

/**
 * Each thing src/lib/medusa-internals.ts reads of Medusa, checked against the Medusa installed: `npm
 * test` runs it on the release package-lock.json holds, `npm run test:medusa-releases` on each
 * other release the peers accept, so the release that changes one fails here, by name.
 */
export const medusaInternals: AppSuite = {
  title: "what the plugin reads of Medusa's internals",
  tests: ({ getContainer }) => {
    it("applicationContainer: the container the store runs with, holding the plugin's module, the payment module and the query", () => {
      const app = applicationContainer()
      expect(app.resolve(PAYBRIGHT_MODULE)).toBe(getContainer().resolve(PAYBRIGHT_MODULE))
      expect(app.resolve(Modules.PAYMENT)).toBe(getContainer().resolve(Modules.PAYMENT))
      expect(typeof app.resolve(ContainerRegistrationKeys.QUERY).graph).toBe("function")
    })

    it("providerKeyOf: the payment module lists its providers' keys under payment_providers, each resolving to its one instance", () => {
      // The test's own handle on the payment module's container (a provider is handed it as its
      // cradle): Medusa's module services keep that cradle as `__container__`.
      const cradle = (getContainer().resolve(Modules.PAYMENT) as unknown as { __container__: Record<string, unknown> })
        .__container__
      const keys = cradle[PAYMENT_PROVIDERS] as string[]
      expect(keys).toEqual(
        expect.arrayContaining(["pp_system_default", "pp_paybright_paybright", "pp_paybright_manual-card"])
      )
      for (const key of ["pp_paybright_paybright", "pp_paybright_manual-card"]) {
        expect(cradle[key]).toBe(cradle[key])
        expect(providerKeyOf(cradle, cradle[key] as object, "paybright")).toBe(key)
      }
      expect(providerKeyOf(cradle, cradle.pp_system_default as object, "paybright")).toBeUndefined()
      // Anything but the payment module's container names no provider.
      expect(providerKeyOf({}, cradle.pp_paybright_paybright as object, "paybright")).toBeUndefined()
    })

    it("usesPostgresLocks: the locking module names its default provider in defaultProviderId", () => {
      // medusa-config.ts locks through locking-postgres when no REDIS_URL is set, as in `npm test`.
      expect((getContainer().resolve(Modules.LOCKING) as { defaultProviderId?: unknown }).defaultProviderId).toBe(
        "locking-postgres"
      )
      expect(usesPostgresLocks(getContainer())).toBe(true)
    })

    it("postgresLease: locking-postgres keeps a lease as a row of `locking` (owner, expiration) and never hands an expired one to another owner", async () => {
      const container = getContainer()
      const locking = container.resolve<ILockingModule>(Modules.LOCKING)
      const key = `paybright:internals:${randomUUID()}`
      expect(await postgresLease(container, key)).toBeNull()

      await locking.acquire(key, { ownerId: "first", expire: 1 })
      expect(await postgresLease(container, key)).toEqual({ owner: "first", expired: false })
      expect(await leaseHeld(container, key)).toBe(true)
      await sleep(1_500)
      expect(await postgresLease(container, key)).toEqual({ owner: "first", expired: true })
      // The gap the plugin works around: were it closed, clearExpiredLeases could go.
      await expect(locking.acquire(key, { ownerId: "second", expire: 5 })).rejects.toThrow()

      // Given back through the locking module in the holder's name, the key is free for the next owner.
      await clearExpiredLeases(container, [key])
      expect(await postgresLease(container, key)).toBeNull()
      await locking.acquire(key, { ownerId: "second", expire: 5 })
      // A lease that has not expired stays with its holder.
      await clearExpiredLeases(container, [key])
      expect(await postgresLease(container, key)).toEqual({ owner: "second", expired: false })
      await locking.release(key, { ownerId: "second" })
    })

    it("postgresLease: a lease taken without an owner, as Medusa's cart completion takes one, is given back once expired", async () => {
      const container = getContainer()
      const locking = container.resolve<ILockingModule>(Modules.LOCKING)
      const key = `paybright:internals:${randomUUID()}`
      await locking.acquire(key, { expire: 1 })
      expect(await postgresLease(container, key)).toEqual({ owner: null, expired: false })
      await clearExpiredLeases(container, [key])
      expect(await leaseHeld(container, key)).toBe(true)
      await sleep(1_500)
      await clearExpiredLeases(container, [key])
      expect(await leaseHeld(container, key)).toBe(false)
    })
  },
}
