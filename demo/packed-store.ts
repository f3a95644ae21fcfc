import fs from "node:fs"
import path from "node:path"
import { Cleanup } from "./cleanup"
import { demoDatabase } from "./database"
import { stopAll } from "./processes"
import { step } from "./progress"
import type { SeededStore, SeedOptions } from "../test-support/seed-store"
import {
  createStoreFolder,
  installBuiltPlugin,
  migrate,
  seed,
  storeEnv,
  writeStoreConfig,
  type StoreSettings,
} from "./store"

export type PackedStore = {
  storeDir: string
  /** The environment every process of the store shares (same secrets, same database). */
  env: NodeJS.ProcessEnv
  settings: StoreSettings
  seeded: SeededStore
  admin: { email: string; password: string }
}

/**
 * A store as a merchant installs one, ready to start: a database (the system's or embedded), the
 * plugin built, packed and installed into a new store folder, its config written, migrated,
 * seeded, and an admin user. The same steps as `npm run demo`; everything it started or wrote is
 * undone by `cleanup`. `env` is added to the store's environment; `postgresSettings` are given to
 * an embedded PostgreSQL.
 */
export async function preparePackedStore(
  cleanup: Cleanup,
  settings: Omit<StoreSettings, "databaseUrl">,
  seedOptions: SeedOptions,
  {
    env: extraEnv = {},
    postgresSettings = {},
  }: { env?: NodeJS.ProcessEnv; postgresSettings?: Record<string, string> } = {}
): Promise<PackedStore> {
  const database = await step("PostgreSQL", async (note) => {
    const database = await demoDatabase(postgresSettings)
    note(database.describe)
    return database
  })
  cleanup.add("PostgreSQL", () => database.drop())
  const storeDir = createStoreFolder()
  cleanup.add("the store folder", () => fs.rmSync(storeDir, { recursive: true, force: true }))
  cleanup.add("Medusa commands", () => stopAll())
  await step("Build and pack the plugin, install it into a new store", async (note) => {
    const { tarball, files, reused } = await installBuiltPlugin(storeDir)
    note(
      `${tarball}${reused ? " (packed earlier in this test run)" : ""}, ${files} files, in ${path.relative(process.cwd(), storeDir)}`
    )
  })
  const full: StoreSettings = { ...settings, databaseUrl: database.url }
  writeStoreConfig(storeDir, full)
  const env = { ...storeEnv(storeDir, full), ...extraEnv }
  // The Redis topology adds Medusa modules (its event bus, workflow engine and locking) that the
  // template was not migrated with.
  const migrated = database.migrated && !settings.redis
  await step("Run Medusa's migrations", async (note) => {
    if (migrated) return note("none left: the database is a copy of the template this test run migrated")
    await migrate(storeDir, env)
  })
  const { seeded, admin } = await step(
    "Seed a Canadian store (CAD, PayBright, products, shipping) and an admin user",
    async (note) => {
      const result = await seed(storeDir, env, seedOptions)
      note(
        // The publishable key is printed once, whole, beside the backend's URL (npm run demo -- --serve):
        // a shortened one here would be copied by mistake.
        `${result.seeded.variants.length} products, a publishable key, admin ${result.admin.email} / ${result.admin.password}`
      )
      return result
    }
  )
  return { storeDir, env, settings: full, seeded, admin }
}
