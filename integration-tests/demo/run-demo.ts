import { spawn, type ChildProcess } from "node:child_process"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")

/** `npm run demo` as a person runs it, its output collected; stopped with Ctrl-C (SIGINT). */
export class DemoRun {
  output = ""
  private readonly child: ChildProcess
  readonly exited: Promise<number>

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [path.join(ROOT, "node_modules/ts-node/dist/bin.js"), "--transpile-only", "demo/main.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, DB_HOST: "", DATABASE_URL: "", NODE_OPTIONS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    })
    this.child.stdout!.on("data", (chunk) => (this.output += chunk))
    this.child.stderr!.on("data", (chunk) => (this.output += chunk))
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code ?? 1)))
  }

  async waitFor(pattern: RegExp, timeoutMs = 180_000): Promise<RegExpMatchArray> {
    const until = Date.now() + timeoutMs
    while (Date.now() < until) {
      const match = pattern.exec(this.output)
      if (match) return match
      if (this.child.exitCode !== null) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    throw new Error(`the demo never printed ${pattern}:\n${this.output.slice(-3000)}`)
  }

  async interrupt(): Promise<number> {
    if (this.child.exitCode === null) this.child.kill("SIGINT")
    return this.exited
  }
}
