import fs from "node:fs"
import path from "node:path"
import type { ChildProcess } from "node:child_process"
import { killProcess, runCommand, stopProcess, tail, track } from "./processes"

const ROOT = path.resolve(__dirname, "..")
// The project's own CLI (a devDependency): the store folder has no node_modules/.bin of its own,
// and this CLI registers ts-node itself, so medusa-config.ts and seed.ts need no build step.
const CLI = path.join(ROOT, "node_modules", "@medusajs", "cli", "cli.js")

/** Runs a Medusa CLI command in the store folder, as `npx medusa <args>` would there. */
export function medusa(storeDir: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return runCommand(process.execPath, [CLI, ...args], { cwd: storeDir, env, label: `medusa ${args[0]}` })
}

/** A long-running `medusa start`, logging to a file, stopped with a deadline. */
export class MedusaServer {
  private child?: ChildProcess
  readonly logFile: string

  constructor(
    private readonly storeDir: string,
    private readonly env: NodeJS.ProcessEnv,
    readonly url: string,
    logName = "medusa.log"
  ) {
    this.logFile = path.join(storeDir, logName)
  }

  /** Starts the server and waits for GET /health to answer 200; fails at once if the process dies. */
  async start(timeoutMs = 120_000) {
    const log = fs.openSync(this.logFile, "a")
    const child = track(process.execPath, [CLI, "start"], {
      cwd: this.storeDir,
      env: this.env,
      stdio: ["ignore", log, log],
    })
    fs.closeSync(log)
    this.child = child
    const exited = new Promise<never>((_, reject) =>
      child.once("exit", (code, signal) =>
        reject(
          new Error(
            `medusa start ${signal ? `was stopped by ${signal}` : `exited with ${code}`}; its last log lines:\n${this.logTail()}`
          )
        )
      )
    )
    exited.catch(() => {})
    const until = Date.now() + timeoutMs
    while (Date.now() < until) {
      const healthy = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(2000) }).then(
        (response) => response.ok,
        () => false
      )
      if (healthy) return
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 300))])
    }
    throw new Error(
      `the store did not answer ${this.url}/health within ${timeoutMs / 1000}s; its last log lines:\n${this.logTail()}`
    )
  }

  logTail(lines = 25): string {
    try {
      return tail(fs.readFileSync(this.logFile, "utf8"), lines)
    } catch {
      return "(no log)"
    }
  }

  /** Kills the process without warning, mid-request; `start()` brings it back with the same log. */
  async kill() {
    if (this.child) await killProcess(this.child)
  }

  async stop() {
    if (this.child) await stopProcess(this.child)
  }
}
