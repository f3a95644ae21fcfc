import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process"

/**
 * Every process the demo started that has not exited yet. Each runs in its own process group
 * (detached), so stopping it also stops whatever it started, and a Ctrl-C that reaches only the
 * demo (a test's `kill -INT <pid>`, not a terminal's whole foreground group) still ends them
 * through `stopAll()`.
 */
const running = new Set<ChildProcess>()

export function track(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true })
  running.add(child)
  child.once("exit", () => running.delete(child))
  child.once("error", () => running.delete(child))
  return child
}

/** Runs a command to its end; on failure the error names it and carries the output's tail. */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; label?: string }
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = track(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    })
    let output = ""
    child.stdout!.on("data", (chunk) => (output += chunk))
    child.stderr!.on("data", (chunk) => (output += chunk))
    child.once("error", reject)
    child.once("close", (code, signal) => {
      if (code === 0) return resolve(output)
      const label = options.label ?? [command, ...args].join(" ")
      // eslint-disable-next-line no-control-regex
      const plain = tail(output.replace(/\x1b\[[0-9;]*m/g, ""))
      reject(new Error(`${label} ${signal ? `was stopped by ${signal}` : `exited with ${code}`}:\n${plain}`))
    })
  })
}

/** Stops every process still running. */
export async function stopAll() {
  await Promise.all([...running].map((child) => stopProcess(child)))
}

/** A graceful shutdown can hang (Medusa's does): SIGTERM to the group, then SIGKILL after a deadline. */
/** Kills a tracked process and its group at once (SIGKILL), as an out-of-memory killer or a deploy does. */
export async function killProcess(child: ChildProcess) {
  const pid = child.pid
  if (!pid || child.exitCode !== null || child.signalCode !== null) return
  const gone = new Promise((resolve) => child.once("exit", resolve))
  signalGroup(pid, "SIGKILL")
  await gone
}

export async function stopProcess(child: ChildProcess, deadlineMs = 5000) {
  const pid = child.pid
  if (!pid) return
  if (child.exitCode === null && child.signalCode === null) {
    const gone = new Promise((resolve) => child.once("exit", resolve))
    signalGroup(pid, "SIGTERM")
    const stopped = await Promise.race([
      gone.then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), deadlineMs)),
    ])
    if (!stopped) {
      signalGroup(pid, "SIGKILL")
      await gone
    }
  }
  // Anything the group left behind (a worker that ignored SIGTERM) goes too. The group only:
  // the leader's pid alone may already belong to another process.
  signalGroup(pid, "SIGKILL")
}

function signalGroup(pid: number, name: NodeJS.Signals) {
  try {
    process.kill(-pid, name)
  } catch {
    // No such group: already gone.
  }
}

export function tail(text: string, lines = 25) {
  return text.trim().split("\n").slice(-lines).join("\n")
}
