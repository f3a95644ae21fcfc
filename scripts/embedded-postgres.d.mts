/** Types of embedded-postgres.mjs, for the TypeScript that starts it (the demo, the bench). */
export type EmbeddedPostgres = {
  host: string
  port: number
  user: string
  password: string
  /** Whether the data is in memory (asked for with `inMemory`, and the machine had room). */
  inMemory: boolean
  /** A connection URL to `database` on this server. */
  url(database: string): string
  stop(deadlineMs?: number): Promise<void>
}

export function startPostgres(options?: {
  port?: number
  dataDir?: string
  log?: (line: string) => void
  maxConnections?: number
  stopDeadlineMs?: number
  settings?: Record<string, string>
  inMemory?: boolean
}): Promise<EmbeddedPostgres>

export function freePort(): Promise<number>
