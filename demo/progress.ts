/**
 * One line per step with its time: a spinner while it runs on a terminal, plain lines elsewhere
 * (CI logs).
 */
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

export class StepError extends Error {
  constructor(
    readonly step: string,
    readonly cause: unknown
  ) {
    super(`${step} failed: ${cause instanceof Error ? cause.message : String(cause)}`)
  }
}

export async function step<T>(name: string, run: (note: (text: string) => void) => Promise<T>): Promise<T> {
  const started = Date.now()
  const tty = process.stdout.isTTY
  let detail = ""
  let frame = 0
  const timer = tty
    ? setInterval(() => {
        process.stdout.write(`\r${FRAMES[frame++ % FRAMES.length]} ${name}${detail ? ` (${detail})` : ""} ${seconds(started)}\x1b[K`)
      }, 80)
    : undefined
  if (!tty) process.stdout.write(`… ${name}\n`)
  try {
    const result = await run((text) => (detail = text))
    finish(timer, tty, `✔ ${name}${detail ? ` (${detail})` : ""}`, started)
    return result
  } catch (error) {
    finish(timer, tty, `✖ ${name}`, started)
    throw error instanceof StepError ? error : new StepError(name, error)
  }
}

function finish(timer: NodeJS.Timeout | undefined, tty: boolean | undefined, line: string, started: number) {
  if (timer) clearInterval(timer)
  process.stdout.write(`${tty ? "\r" : ""}${line.padEnd(60)} ${seconds(started)}${tty ? "\x1b[K" : ""}\n`)
}

function seconds(started: number) {
  return `${((Date.now() - started) / 1000).toFixed(1)}s`
}
