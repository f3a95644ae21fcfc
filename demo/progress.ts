/**
 * One line per step with its time: a spinner while it runs on a terminal, plain lines elsewhere
 * (CI logs, a test reading the output), so that the output never holds control characters there.
 */
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
const tty = Boolean(process.stdout.isTTY)

/** A failure that names the step it happened in. */
export class StepError extends Error {
  constructor(
    readonly step: string,
    readonly cause: unknown
  ) {
    super(`${step} failed: ${cause instanceof Error ? cause.message : String(cause)}`)
  }
}

type Active = { name: string; started: number; timer?: NodeJS.Timeout; detail: string }
let active: Active | undefined

/**
 * Runs one step, showing its name, a detail the step may set with `note`, and its time. Steps run
 * one after another, never inside each other.
 */
export async function step<T>(name: string, run: (note: (text: string) => void) => Promise<T>): Promise<T> {
  const current: Active = { name, started: Date.now(), detail: "" }
  active = current
  if (tty) {
    let frame = 0
    current.timer = setInterval(() => {
      // Kept to one terminal line: a wrapped line cannot be redrawn with \r.
      const time = ` ${seconds(current.started)}`
      const width = (process.stdout.columns || 80) - 1 - time.length
      const text = `${FRAMES[frame++ % FRAMES.length]} ${label(current)}`
      process.stdout.write(`\r${text.length > width ? `${text.slice(0, width - 1)}…` : text}${time}\x1b[K`)
    }, 80)
  } else {
    process.stdout.write(`… ${name}\n`)
  }
  try {
    const result = await run((text) => (current.detail = text))
    finish(current, "✔")
    return result
  } catch (error) {
    finish(current, "✖")
    throw error instanceof StepError ? error : new StepError(name, error)
  }
}

/** Ends the spinner of a step cut short (Ctrl-C), so what follows starts on a clean line. */
export function interrupt(why = "interrupted") {
  if (!active) return
  if (why) active.detail = why
  finish(active, "✖")
}

function finish(current: Active, mark: string) {
  if (current.timer) clearInterval(current.timer)
  current.timer = undefined
  if (active !== current) return
  active = undefined
  process.stdout.write(
    `${tty ? "\r" : ""}${`${mark} ${label(current)}`.padEnd(62)} ${seconds(current.started).padStart(6)}${tty ? "\x1b[K" : ""}\n`
  )
}

function label(current: Active) {
  return `${current.name}${current.detail ? ` (${current.detail})` : ""}`
}

function seconds(started: number) {
  return `${((Date.now() - started) / 1000).toFixed(1)}s`
}
