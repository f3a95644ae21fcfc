import {
  LenderError,
  LenderRejectedError,
  LenderAuthError,
  LenderNotFoundError,
  LenderUnavailableError,
  lenderFact,
} from "../errors"

/** Builds the error for a non-2xx answer from its status and body. */
export function errorFromResponse(
  operation: string,
  status: number,
  body: unknown,
  retryAfter?: string | null
): LenderError {
  const lenderMessage = messageFromBody(body)
  const init = { operation, status, lenderMessage, message: "" }
  const fact = (code: string) => lenderFact(code, operation, lenderMessage)
  if (status === 400) {
    return new LenderRejectedError({
      ...init,
      outcome: "refused",
      code: "rejected",
      said: fact("rejected"),
    })
  }
  if (status === 401 || status === 403) {
    return new LenderAuthError({
      ...init,
      outcome: "refused",
      code: "unauthorized",
      said: fact("unauthorized"),
    })
  }
  if (status === 404) {
    return new LenderNotFoundError({
      ...init,
      outcome: "refused",
      code: "not_found",
      said: fact("not_found"),
    })
  }
  if (status === 429) {
    // Rate limited: the lender turned the request away before acting on it.
    const seconds = retryAfter && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter.trim()) : undefined
    return new LenderUnavailableError({
      ...init,
      outcome: "refused",
      code: "rate_limited",
      retryAfterSeconds: seconds,
      said: fact("rate_limited"),
    })
  }
  if (status >= 500) {
    return new LenderUnavailableError({
      ...init,
      outcome: "in_doubt",
      code: "unavailable",
      said: fact("unavailable"),
    })
  }
  return new LenderError({
    ...init,
    outcome: "in_doubt",
    code: "unexpected_status",
    said: fact("unexpected_status"),
  })
}

// The lender's error bodies are not documented; take the first message-like field, briefly.
function messageFromBody(body: unknown): string | undefined {
  if (typeof body === "string") {
    const text = body.trim()
    return text && !text.startsWith("<") ? text.slice(0, 300) : undefined
  }
  if (body && typeof body === "object") {
    const record = body as Record<string, unknown>
    for (const key of ["x_message", "message", "Message", "error", "error_description"]) {
      const value = record[key]
      if (typeof value === "string" && value.trim()) {
        return value.trim().slice(0, 300)
      }
    }
  }
  return undefined
}
