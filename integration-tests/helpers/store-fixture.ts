import type { MedusaContainer } from "@medusajs/framework/types"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import { adminHeaders } from "./admin-auth"
import { seedStore, type SeededStore } from "../../test-support/seed-store"

export type StoreFixture = {
  simulator: Simulator
  store: SeededStore
  admin: Awaited<ReturnType<typeof adminHeaders>>
}

/** What most suites start from: the running simulator, a seeded Canadian store and a logged-in admin. */
export async function storeFixture(
  container: MedusaContainer,
  lender: { simulator: Simulator },
  seed?: Parameters<typeof seedStore>[1]
): Promise<StoreFixture> {
  const store = await seedStore(container, seed)
  return { simulator: lender.simulator, store, admin: await adminHeaders(container) }
}
