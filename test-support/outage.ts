/**
 * Whether an error is a store that did not answer or failed on its own side: the connection
 * refused or cut (a server killed or restarting) or a 5xx (its database connection cut under it).
 * A shopper or merchant meeting one tries again; a 4xx is an answer and is not retried.
 */
export function isOutage(error: unknown): boolean {
  const status = (error as { status?: number }).status
  if (typeof status === "number") return status >= 500
  const text = `${(error as Error)?.message ?? ""} ${String((error as { cause?: unknown })?.cause ?? "")}`
  return /fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|other side closed|UND_ERR|terminated|network/i.test(text)
}

let outagesMet = 0

/** How many requests met an outage and were made again, for the suite's report. */
export function outagesRetried() {
  return outagesMet
}

/**
 * Runs an action that is safe to repeat, again after each outage (every 2 s, for at most
 * `deadlineMs`), as a person reloading the page does.
 */
export async function throughOutages<T>(action: () => Promise<T>, deadlineMs = 300_000): Promise<T> {
  const deadline = Date.now() + deadlineMs
  for (;;) {
    try {
      return await action()
    } catch (error) {
      if (!isOutage(error) || Date.now() > deadline) throw error
      outagesMet++
      await new Promise((resolve) => setTimeout(resolve, 2000))
    }
  }
}
