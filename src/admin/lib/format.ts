/** An amount and its currency as the panel writes them: "141.25 CAD". Amounts arrive as decimal strings. */
export function money(amount: string, currency: string) {
  return `${amount} ${currency.toUpperCase()}`
}

export function dateTime(iso: string) {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
}

export function date(iso: string) {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" })
}

/** The message of an error from the SDK, or a fallback that says what failed. */
export function errorText(error: unknown, fallback: string) {
  return error instanceof Error && error.message ? error.message : fallback
}
