import fs from "node:fs"
import path from "node:path"

/**
 * Runs `work` holding a lock file, for work two processes must not do at once (the test suite runs
 * several files side by side, each of which may start a demo or a browser). The file holds the
 * holder's pid: a lock left by a process that is gone is taken over. `what` says what the holder
 * is doing, for the error raised after three minutes of waiting.
 */
export async function withLock<T>(file: string, what: string, work: () => Promise<T>): Promise<T> {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  for (let waited = 0; ; waited += 250) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" })
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      const holder = Number(readOrEmpty(file))
      // An empty file is a lock being taken (created, its pid not yet written), unless it is old.
      const abandoned = holder ? !alive(holder) : ageMs(file) > 5_000
      if (abandoned) {
        fs.rmSync(file, { force: true })
        continue
      }
      if (waited > 180_000)
        throw new Error(
          `another process (pid ${holder || "unknown"}) has been ${what} for 3 minutes; remove ${file} if it is stuck`
        )
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  // Ctrl-C ends the demo with process.exit, before this function's finally can run.
  const giveBack = () => {
    if (readOrEmpty(file) === String(process.pid)) fs.rmSync(file, { force: true })
  }
  process.once("exit", giveBack)
  try {
    return await work()
  } finally {
    process.removeListener("exit", giveBack)
    giveBack()
  }
}

/** A small file's text, or "" when it is not there. */
export function readOrEmpty(file: string) {
  try {
    return fs.readFileSync(file, "utf8").trim()
  } catch {
    return ""
  }
}

function ageMs(file: string) {
  try {
    return Date.now() - fs.statSync(file).mtimeMs
  } catch {
    return 0
  }
}

/** Whether a process of this pid still runs. */
export function alive(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
