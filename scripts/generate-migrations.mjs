#!/usr/bin/env node
import { spawnSync } from "node:child_process"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { startPostgres } from "./embedded-postgres.mjs"

/**
 * `npm run db:generate`: writes a migration for every change to the plugin module's data models.
 * Medusa's generator compares the models with the module's snapshot through a live database, so
 * this starts a throwaway PostgreSQL unless DATABASE_URL or DB_HOST names one.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
let postgres
const env = { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true" }
if (!env.DATABASE_URL && !env.DB_HOST) {
  postgres = await startPostgres()
  Object.assign(env, {
    DB_HOST: postgres.host,
    DB_PORT: String(postgres.port),
    DB_USERNAME: postgres.user,
    DB_PASSWORD: postgres.password,
  })
}
const result = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/@medusajs/cli/cli.js"), "plugin:db:generate"],
  {
    cwd: root,
    env,
    stdio: "inherit",
  }
)
await postgres?.stop()
process.exit(result.status ?? 1)
