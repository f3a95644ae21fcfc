/**
 * Delivers application results to the store's x_url_callback the way the lender does: a
 * form-encoded POST that counts as delivered only on HTTP 200, retried otherwise.
 */
export type CallbackSettings = {
  /** Wait before the first attempt (lets a test make the return route win the race). */
  delayMs: number
  /** Further attempts after a failed one. */
  retries: number
  retryIntervalMs: number
  /** Off: no callback is sent at all (the return redirect is then the only delivery). */
  enabled: boolean
}

export type CallbackAttempt = {
  url: string
  reference: string
  attempt: number
  status?: number
  error?: string
  at: string
}

export class CallbackSender {
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly controllers = new Set<AbortController>()
  readonly log: CallbackAttempt[] = []

  constructor(private readonly settings: () => CallbackSettings) {}

  send(url: string, fields: Record<string, string>) {
    const settings = this.settings()
    if (settings.enabled) {
      this.schedule(url, fields, 1, settings.delayMs)
    }
  }

  close() {
    this.timers.forEach((timer) => clearTimeout(timer))
    this.timers.clear()
    this.controllers.forEach((controller) => controller.abort())
  }

  private schedule(url: string, fields: Record<string, string>, attempt: number, delayMs: number) {
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      void this.attempt(url, fields, attempt)
    }, delayMs)
    timer.unref()
    this.timers.add(timer)
  }

  private async attempt(url: string, fields: Record<string, string>, attempt: number) {
    if (!this.settings().enabled) {
      return
    }
    const entry: CallbackAttempt = { url, reference: fields.x_reference, attempt, at: new Date().toISOString() }
    const controller = new AbortController()
    this.controllers.add(controller)
    const timeout = setTimeout(() => controller.abort(), 10_000)
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
        redirect: "manual",
        signal: controller.signal,
      })
      await response.arrayBuffer()
      entry.status = response.status
    } catch (error) {
      entry.error = error instanceof Error ? error.message : String(error)
    } finally {
      clearTimeout(timeout)
      this.controllers.delete(controller)
    }
    this.log.push(entry)
    const settings = this.settings()
    if (entry.status !== 200 && attempt <= settings.retries) {
      this.schedule(url, fields, attempt + 1, settings.retryIntervalMs)
    }
  }
}
