import fs from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { seedStore, type SeedOptions } from "../test-support/seed-store"

/**
 * Run by `medusa exec` inside the demo store: seeds the Canadian store and writes what the
 * journey needs (publishable key, ids) to the file named by PAYBRIGHT_DEMO_SEED_OUT.
 * PAYBRIGHT_DEMO_SEED_OPTIONS (JSON SeedOptions) changes the seed, for the suites that need more.
 */
export default async function seed({ container }: ExecArgs) {
  const overrides = JSON.parse(process.env.PAYBRIGHT_DEMO_SEED_OPTIONS || "{}") as SeedOptions
  const seeded = await seedStore(container, {
    prices: [899, 1249.99, 64.5],
    shippingPrice: 25,
    ...overrides,
  })
  fs.writeFileSync(process.env.PAYBRIGHT_DEMO_SEED_OUT!, JSON.stringify(seeded))
}
