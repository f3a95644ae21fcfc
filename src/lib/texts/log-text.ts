/**
 * A value taken from a request, made safe for a log line: control characters (newlines that
 * would forge a log line, terminal escapes) become spaces, and it is cut to a readable length.
 */
export function forLog(value: unknown, maxLength = 80): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value))
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ")
  return clean.length > maxLength ? `${clean.slice(0, maxLength)}…` : clean
}

/**
 * The words of whatever was thrown: an Error's message, the `message` of an error object (Medusa's
 * workflows throw those), or the value as text.
 */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  const message = (error as { message?: unknown } | null)?.message
  return typeof message === "string" ? message : String(error)
}
