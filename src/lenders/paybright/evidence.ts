/**
 * The string, number and boolean fields of a lender's answer, each cut to a readable length:
 * evidence a person compares with the PayBright portal. Only answers that hold no card data are
 * passed here (never the virtual card).
 */
export function stringFields(body: unknown): Record<string, string> {
  const evidence: Record<string, string> = {}
  if (body && typeof body === "object") {
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
        evidence[name] = String(value).slice(0, 200)
      }
    }
  }
  return evidence
}
