/**
 * Counts the calls the store makes to the lender and to Stripe, by endpoint: the simulator reports
 * each request it serves, the fake Stripe keeps a log. Only the store's server-to-server calls
 * count: the lender's REST API (/api/…) and Stripe's API; not the shopper's browser posting the
 * application form, nor the bench's own use of the control API.
 */
export class RemoteCalls {
  private readonly lender: string[] = []

  constructor(private readonly stripeLog: () => { method: string; path: string }[]) {}

  /** The simulator's logger line for a request, e.g. "POST /api/v2/instore/51325/capture". */
  lenderRequest(line: string) {
    const match = /^(GET|POST|PUT|DELETE) (\/api\/\S*)$/i.exec(line)
    // The lender's paths take a trailing slash or not (ASP.NET): counted as one endpoint.
    const path = match?.[2].replace(/\/\d+(?=\/|$)/g, "/:contract").replace(/\/$/, "")
    if (match) this.lender.push(`lender ${match[1]} ${path}`)
  }

  /** Every call so far, as "who METHOD /path" lines; diff two snapshots to count a phase. */
  snapshot(): string[] {
    return [...this.lender, ...this.stripeLog().map((request) => `stripe ${request.method} ${request.path}`)]
  }
}

/** Calls between two snapshots, by endpoint, per order (divided by `orders`). */
export function callsPerOrder(before: string[], after: string[], orders: number): Record<string, number> {
  const counts: Record<string, number> = {}
  const seen = new Map<string, number>()
  for (const call of before) seen.set(call, (seen.get(call) ?? 0) + 1)
  for (const call of after) {
    const left = seen.get(call) ?? 0
    if (left > 0) seen.set(call, left - 1)
    else counts[call] = (counts[call] ?? 0) + 1
  }
  return Object.fromEntries(Object.entries(counts).map(([call, count]) => [call, count / orders]))
}
