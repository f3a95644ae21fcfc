import fs from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { seedStore } from "./seed-store"

/**
 * Run by `medusa exec` inside the demo store: seeds the Canadian store and writes what the
 * journey needs (publishable key, ids) to the file named by PAYBRIGHT_DEMO_SEED_OUT.
 */
export default async function seed({ container }: ExecArgs) {
  const seeded = await seedStore(container, { prices: [899, 1249.99, 64.5], taxRate: 13, shippingPrice: 25 })
  fs.writeFileSync(process.env.PAYBRIGHT_DEMO_SEED_OUT!, JSON.stringify(seeded))
}
