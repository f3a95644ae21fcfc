import type { CallbackSettings } from "./settings"
import type { SimulatorLogger } from "./logger"

/**
 * What a callback delivers: an application's result (to the application's x_url_callback) or a
 * void's result (to the x_url_callback the order-management call named). Both carry the
 * application's x_reference.
 */
export type CallbackKind = "application" | "void"

/** One delivery attempt, as the control API and `simulator.callbacks()` show it. */
export type CallbackAttempt = {
  url: string
  /** The x_reference the result is for. */
  reference: string
  kind: CallbackKind
  /** 1 for the first attempt. */
  attempt: number
  /** Which delivery of the result this attempt belongs to, 1 for the first (see CallbackSettings.copies). */
  copy: number
  /** The store's HTTP status, when it answered. */
  status?: number
  /** Why no status: refused connection, timeout, shutdown. */
  error?: string
  at: string
}

type Delivery = { kind: CallbackKind; copy: number; attempt: number }

/**
 * Delivers results to the store's x_url_callback the way the lender does: a form-encoded POST
 * that counts as delivered only on HTTP 200, retried otherwise. Application and void results go
 * the same way, with the same settings.
 */
export class CallbackSender {
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly controllers = new Set<AbortController>()
  private closed = false
  readonly log: CallbackAttempt[] = []

  constructor(
    private readonly settings: () => CallbackSettings,
    private readonly logger?: SimulatorLogger
  ) {}

  /** Schedules delivery of signed `fields` to `url`, unless callbacks are switched off. */
  send(url: string, fields: Record<string, string>, kind: CallbackKind = "application") {
    const settings = this.settings()
    if (settings.enabled && !this.closed) {
      for (let copy = 1; copy <= settings.copies; copy++) {
        this.schedule(url, fields, { kind, copy, attempt: 1 }, settings.delayMs + (copy - 1) * settings.copyIntervalMs)
      }
    }
  }

  /** Cancels every pending attempt and aborts those in flight; nothing is sent afterwards. */
  close() {
    this.closed = true
    this.timers.forEach((timer) => clearTimeout(timer))
    this.timers.clear()
    this.controllers.forEach((controller) => controller.abort())
    this.controllers.clear()
  }

  private schedule(url: string, fields: Record<string, string>, delivery: Delivery, delayMs: number) {
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      void this.attempt(url, fields, delivery)
    }, delayMs)
    // A pending retry must not keep a test run or the CLI alive.
    timer.unref()
    this.timers.add(timer)
  }

  private async attempt(url: string, fields: Record<string, string>, { kind, copy, attempt }: Delivery) {
    // Switching callbacks off also stops the retries of results already on their way.
    if (this.closed || !this.settings().enabled) {
      return
    }
    const entry: CallbackAttempt = {
      url,
      reference: fields.x_reference,
      kind,
      attempt,
      copy,
      at: new Date().toISOString(),
    }
    const controller = new AbortController()
    this.controllers.add(controller)
    const { timeoutMs } = this.settings()
    const timeout = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    timeout.unref()
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
        // A redirect is not a 200: the lender does not follow it, so neither does the simulator.
        redirect: "manual",
        signal: controller.signal,
      })
      await response.arrayBuffer()
      entry.status = response.status
    } catch (error) {
      entry.error = this.closed ? "simulator closed" : describe(error)
    } finally {
      clearTimeout(timeout)
      this.controllers.delete(controller)
    }
    this.log.push(entry)
    if (entry.status === 200) {
      this.logger?.info(`${kind} callback for ${entry.reference} delivered to ${url} (attempt ${attempt})`)
      return
    }
    const settings = this.settings()
    const retrying = !this.closed && attempt <= settings.retries
    this.logger?.warn(
      `${kind} callback for ${entry.reference} to ${url} failed (attempt ${attempt}: ${entry.status ?? entry.error})` +
        (retrying ? `; retrying in ${settings.retryIntervalMs} ms` : "; giving up")
    )
    if (retrying) {
      this.schedule(url, fields, { kind, copy, attempt: attempt + 1 }, settings.retryIntervalMs)
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    // fetch hides the reason ("fetch failed") one level down.
    const cause = (error as Error & { cause?: unknown }).cause
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message
  }
  return String(error)
}
