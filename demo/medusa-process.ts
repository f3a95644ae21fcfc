import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import path from "node:path"

const ROOT = path.resolve(__dirname, "..")
const CLI = path.join(ROOT, "node_modules", "@medusajs", "cli", "cli.js")

/** Runs a Medusa CLI command in the store folder; on failure the error carries the output's tail. */
export function medusa(storeDir: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: storeDir, env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.on("error", reject)
    child.on("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`medusa ${args[0]} exited with ${code}:\n${tail(output)}`))
    )
  })
}

/** A long-running `medusa start`, logging to a file, stopped with a deadline. */
export class MedusaServer {
  private child?: ChildProcess
  readonly logFile: string

  constructor(
    private readonly storeDir: string,
    private readonly env: NodeJS.ProcessEnv,
    readonly url: string
  ) {
    this.logFile = path.join(storeDir, "medusa.log")
  }

  async start(timeoutMs = 120_000) {
    const log = fs.openSync(this.logFile, "a")
    // Its own process group, so stopping it also stops anything it started.
    this.child = spawn(process.execPath, [CLI, "start"], { cwd: this.storeDir, env: this.env, stdio: ["ignore", log, log], detached: true })
    const exited = new Promise<never>((_, reject) =>
      this.child!.once("exit", (code) => reject(new Error(`medusa start exited with ${code}:\n${tail(fs.readFileSync(this.logFile, "utf8"))}`)))
    )
    exited.catch(() => {})
    const until = Date.now() + timeoutMs
    while (Date.now() < until) {
      const healthy = await fetch(`${this.url}/health`).then((response) => response.ok, () => false)
      if (healthy) return
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 300))])
    }
    throw new Error(`the store did not answer ${this.url}/health within ${timeoutMs / 1000}s:\n${tail(fs.readFileSync(this.logFile, "utf8"))}`)
  }

  /** Medusa's graceful shutdown can hang: SIGTERM, then SIGKILL after a deadline. */
  async stop(deadlineMs = 5000) {
    const child = this.child
    if (!child?.pid || child.exitCode !== null) return
    const gone = new Promise((resolve) => child.once("exit", resolve))
    signal(child.pid, "SIGTERM")
    const stopped = await Promise.race([gone.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), deadlineMs))])
    if (!stopped) {
      signal(child.pid, "SIGKILL")
      await gone
    }
  }
}

function signal(pid: number, name: NodeJS.Signals) {
  try {
    process.kill(-pid, name)
  } catch {
    try {
      process.kill(pid, name)
    } catch {}
  }
}

export function tail(text: string, lines = 25) {
  return text.trim().split("\n").slice(-lines).join("\n")
}
