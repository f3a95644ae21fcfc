import fs from "node:fs"
import { createUserAccountWorkflow } from "@medusajs/core-flows"
import type { ExecArgs } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { seedStore, type SeedOptions } from "../test-support/seed-store"

/**
 * Run by `medusa exec` inside the demo store: seeds the Canadian store, creates the admin user
 * named by PAYBRIGHT_DEMO_ADMIN (JSON email and password), and writes what the journey needs
 * (publishable key, ids) to the file named by PAYBRIGHT_DEMO_SEED_OUT.
 * PAYBRIGHT_DEMO_SEED_OPTIONS (JSON SeedOptions) changes the seed, for the suites that need more.
 *
 * The admin user is made here rather than by `medusa user`, which would boot the whole store once
 * more: the same emailpass identity and user, linked as that command links them.
 */
export default async function seed({ container }: ExecArgs) {
  const overrides = JSON.parse(process.env.PAYBRIGHT_DEMO_SEED_OPTIONS || "{}") as SeedOptions
  const seeded = await seedStore(container, {
    prices: [899, 1249.99, 64.5],
    shippingPrice: 25,
    ...overrides,
  })
  const admin = JSON.parse(process.env.PAYBRIGHT_DEMO_ADMIN!) as { email: string; password: string }
  const { authIdentity, error } = await container.resolve(Modules.AUTH).register("emailpass", { body: admin })
  if (error || !authIdentity) throw new Error(`could not register the admin user: ${error}`)
  await createUserAccountWorkflow(container).run({
    input: { authIdentityId: authIdentity.id, userData: { email: admin.email } },
  })
  fs.writeFileSync(process.env.PAYBRIGHT_DEMO_SEED_OUT!, JSON.stringify(seeded))
}
