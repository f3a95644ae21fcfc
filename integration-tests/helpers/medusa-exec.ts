import { spawn } from "node:child_process"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")

/**
 * A second, separate Medusa process: `medusa exec <script>` on the test app's database, with its
 * own memory, given `args` after the script as a merchant types them. Answers the child, its exit
 * code (null when killed) and what it printed.
 */
export function medusaExec(script: string, databaseUrl: string, env: Record<string, string> = {}, args: string[] = []) {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/@medusajs/cli/cli.js"), "exec", script, ...args],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_OPTIONS: "", LOG_LEVEL: "error", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }
  )
  let output = ""
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return { child, exited, output: () => output }
}

/** Waits for `check`, failing with what the other process said. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, context: () => string) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out; the other process said:\n${context().slice(-2000)}`)
}
