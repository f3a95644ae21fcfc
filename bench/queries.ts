import { Client } from "pg"

/** What the bench's embedded PostgreSQL loads so that the store's statements can be counted. */
export const STATEMENT_STATISTICS = {
  shared_preload_libraries: "pg_stat_statements",
  // Medusa's distinct statements outnumber the default 5,000: an evicted one would take its count with it.
  "pg_stat_statements.max": "20000",
}

/** How long the store's database must stay quiet before a count is read (work a request left running). */
const QUIET_MS = 150
const QUIET_DEADLINE_MS = 2000

/**
 * Counts the statements the store runs on its database, from PostgreSQL's pg_stat_statements: the
 * round trips a request costs, read around it. The bench's own statements (those that read the
 * counts) are left out. Unavailable on a server that does not preload the extension.
 */
export class DatabaseQueries {
  private constructor(private readonly client: Client) {}

  /** Undefined when the server does not preload pg_stat_statements (a PostgreSQL the caller named). */
  static async open(databaseUrl: string): Promise<DatabaseQueries | undefined> {
    const client = new Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      await client.query("create extension if not exists pg_stat_statements")
      await client.query("select 1 from pg_stat_statements limit 1")
      return new DatabaseQueries(client)
    } catch {
      await client.end()
      return undefined
    }
  }

  /** Statements run on the store's database so far. */
  async count(): Promise<number> {
    const { rows } = await this.client.query<{ calls: string | null }>(
      `select sum(calls) as calls from pg_stat_statements
        where dbid = (select oid from pg_database where datname = current_database())
          and query not ilike '%pg_stat_statements%'`
    )
    return Number(rows[0]?.calls ?? 0)
  }

  /**
   * The count once the store has run nothing for a moment: what a request's events and
   * subscribers run after its answer is counted with it.
   */
  async settledCount(): Promise<number> {
    const deadline = Date.now() + QUIET_DEADLINE_MS
    let last = await this.count()
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS))
      const now = await this.count()
      if (now === last || Date.now() > deadline) return now
      last = now
    }
  }

  async close() {
    await this.client.end()
  }
}
