import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")

/** `npm run demo` as a person runs it, its output collected; stopped with Ctrl-C (SIGINT). */
export class DemoRun {
  output = ""
  private readonly child: ChildProcess
  readonly exited: Promise<number>

  constructor(args: string[], env: Record<string, string> = {}) {
    this.child = spawn(
      process.execPath,
      [path.join(ROOT, "node_modules/ts-node/dist/bin.js"), "--transpile-only", "demo/main.ts", ...args],
      {
        cwd: ROOT,
        env: { ...process.env, DB_HOST: "", DATABASE_URL: "", NODE_OPTIONS: "", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      }
    )
    this.child.stdout!.on("data", (chunk) => (this.output += chunk))
    this.child.stderr!.on("data", (chunk) => (this.output += chunk))
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code ?? 1)))
  }

  /**
   * Waits for the demo to print `pattern`. The demo prints a line as each step starts and ends, so
   * it fails when the demo has exited, or has printed nothing for `silentMs` (a step that hangs):
   * a machine busy with other test files makes the steps slower, not silent.
   */
  async waitFor(pattern: RegExp, silentMs = 180_000): Promise<RegExpMatchArray> {
    let seen = this.output.length
    let until = Date.now() + silentMs
    while (Date.now() < until) {
      const match = pattern.exec(this.output)
      if (match) return match
      if (this.child.exitCode !== null) break
      if (this.output.length !== seen) {
        seen = this.output.length
        until = Date.now() + silentMs
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    throw new Error(`the demo never printed ${pattern}:\n${this.output.slice(-3000)}`)
  }

  /** The demo's own process id (the one it writes into its store folder's demo.pid). */
  get pid(): number {
    return this.child.pid!
  }

  /** Every process the demo started and is still running (PostgreSQL, Medusa, npm, ...). */
  descendants(): number[] {
    return this.child.pid ? descendantsOf(this.child.pid) : []
  }

  async interrupt(): Promise<number> {
    if (this.child.exitCode === null) this.child.kill("SIGINT")
    return this.exited
  }
}

function descendantsOf(root: number): number[] {
  const parents = new Map<number, number>()
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue
    try {
      // "pid (comm) state ppid ...": the command may hold spaces and parentheses.
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8")
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      if (fields[0] !== "Z") parents.set(Number(name), Number(fields[1]))
    } catch {}
  }
  const found: number[] = []
  const visit = (pid: number) => {
    for (const [child, parent] of parents) {
      if (parent === pid) {
        found.push(child)
        visit(child)
      }
    }
  }
  visit(root)
  return found
}

/**
 * The suite's own PostgreSQL, for a demo run that need not start one: the demo then makes its
 * database there (the demo's path for a server named by DB_*), a copy of the template `npm test`
 * has migrated, and skips Medusa's migrations, which would find nothing left to run. One journey
 * still runs as a person runs it, on a PostgreSQL of its own migrated from nothing.
 */
export function suitePostgres(): Record<string, string> {
  const env = process.env
  if (!env.DB_HOST) return {}
  return {
    DB_HOST: env.DB_HOST,
    DB_PORT: env.DB_PORT ?? "5432",
    DB_USERNAME: env.DB_USERNAME ?? "postgres",
    DB_PASSWORD: env.DB_PASSWORD ?? "",
  }
}

/** The processes of `pids` still alive. */
export function stillRunning(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      return !fs.readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ")
    } catch {
      return false
    }
  })
}
