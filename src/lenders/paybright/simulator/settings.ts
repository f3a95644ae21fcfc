import { z } from "zod"
import { issuePaths } from "../schemas"

/** How the simulated lender delivers callbacks (protocol.md §7: only "must answer 200" is documented). */
export type CallbackSettings = {
  /** Milliseconds before the first attempt; lets a test make the browser's return win the race. Default 0. */
  delayMs: number
  /** Further attempts after a failed one. Default 5, the count HPSDK recommends. */
  retries: number
  /** Milliseconds between attempts. Default 1000: short for development, not HPSDK's 60 s. */
  retryIntervalMs: number
  /** Off: no callback at all, so the return redirect is the only delivery. Default true. */
  enabled: boolean
  /**
   * Independent deliveries of each result, each retried until answered 200. Default 1. The lender
   * documents nothing against delivering twice, so a store must take a result more than once.
   */
  copies: number
  /** Milliseconds between the start of one copy and the next. Default 0 (all at once). */
  copyIntervalMs: number
  /** Milliseconds an attempt may take before it counts as failed and is retried. Default 10000. */
  timeoutMs: number
}

/** What can be changed while the simulator runs, through `simulator.settings` or the control API. */
export type SimulatorSettings = {
  /** "ask" shows the application page; "approve"/"decline" decide at once (unattended tests). */
  decision: "ask" | "approve" | "decline"
  callback: CallbackSettings
  /** x_result of a successful capture: "Completed" as in the spec's sample, or "success" as in the docs. */
  captureResult: string
  /** Milliseconds in-store capture, refund and the void wait before answering, to widen races in tests. */
  apiLatencyMs: number
  /** Milliseconds the virtual card takes to answer, to make a cart completion slow in tests. */
  cardLatencyMs: number
}

/** A partial change of the settings; `callback` merges one level deeper. */
export type SimulatorSettingsUpdate = Partial<Omit<SimulatorSettings, "callback">> & {
  callback?: Partial<CallbackSettings>
}

export const DEFAULT_SETTINGS: SimulatorSettings = {
  decision: "ask",
  captureResult: "Completed",
  apiLatencyMs: 0,
  cardLatencyMs: 0,
  callback: {
    delayMs: 0,
    retries: 5,
    retryIntervalMs: 1000,
    enabled: true,
    copies: 1,
    copyIntervalMs: 0,
    timeoutMs: 10_000,
  },
}

const millis = z.number().int().min(0).max(600_000)

const settingsUpdateSchema = z
  .object({
    decision: z.enum(["ask", "approve", "decline"]),
    captureResult: z.string().min(1),
    apiLatencyMs: millis,
    cardLatencyMs: millis,
    callback: z
      .object({
        delayMs: millis,
        retries: z.number().int().min(0).max(100),
        retryIntervalMs: millis,
        enabled: z.boolean(),
        copies: z.number().int().min(1).max(10),
        copyIntervalMs: millis,
        timeoutMs: z.number().int().min(1).max(600_000),
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict()

/**
 * Applies an update to the settings and answers the new settings; throws a RangeError naming
 * the bad fields, so a typo in a test ("decison") fails loudly instead of being ignored.
 */
export function mergeSettings(current: SimulatorSettings, update: unknown): SimulatorSettings {
  const parsed = settingsUpdateSchema.safeParse(update ?? {})
  if (!parsed.success) {
    throw new RangeError(`invalid simulator settings: ${issuePaths(parsed.error).join(", ")}`)
  }
  const { callback, ...rest } = parsed.data
  return { ...current, ...stripUndefined(rest), callback: { ...current.callback, ...stripUndefined(callback ?? {}) } }
}

/** A copy the caller may keep or change without changing the simulator. */
export function copySettings(settings: SimulatorSettings): SimulatorSettings {
  return { ...settings, callback: { ...settings.callback } }
}

// `{ decision: undefined }` from an options object means "not given", not "unset".
function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>
}
