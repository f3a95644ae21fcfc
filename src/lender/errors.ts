/**
 * Errors raised when talking to the lender. They carry the HTTP status and the lender's own
 * message, and never the request's credentials, headers or card data.
 */
export class LenderError extends Error {
  /** A stable code a caller can branch on. */
  readonly code: string
  /** HTTP status, when the lender answered at all. */
  readonly status?: number
  /** The lender's own words, when it gave any. */
  readonly lenderMessage?: string
  /** Which operation failed, e.g. "capture". */
  readonly operation: string

  constructor(init: { code: string; message: string; operation: string; status?: number; lenderMessage?: string }) {
    super(init.message)
    this.name = new.target.name
    this.code = init.code
    this.status = init.status
    this.lenderMessage = init.lenderMessage
    this.operation = init.operation
  }
}

/** 400: the lender refused the request as invalid (for capture: the order was not captured). */
export class LenderRejectedError extends LenderError {}
/** 401/403: the API key or token was not accepted. */
export class LenderAuthError extends LenderError {}
/** 404: the contract or resource is unknown to the lender. */
export class LenderNotFoundError extends LenderError {}
/** 5xx or 429: the lender is failing or busy; the call may be tried again later. */
export class LenderUnavailableError extends LenderError {}
/**
 * No answer: timeout, refused connection, DNS. `maybeDone` is true when the request may have
 * reached the lender (a timeout or a dropped connection): a capture or refund may then have
 * happened, and must not be repeated blindly.
 */
export class LenderNetworkError extends LenderError {
  readonly maybeDone: boolean

  constructor(init: ConstructorParameters<typeof LenderError>[0] & { maybeDone: boolean }) {
    super(init)
    this.maybeDone = init.maybeDone
  }
}
/** The lender answered 2xx with a body that does not match the documented shape. */
export class LenderResponseError extends LenderError {}

/** Builds the error for a non-2xx answer from its status and body. */
export function errorFromResponse(operation: string, status: number, body: unknown): LenderError {
  const lenderMessage = messageFromBody(body)
  const said = lenderMessage ? `: ${lenderMessage}` : ""
  const init = { operation, status, lenderMessage }
  if (status === 400) {
    return new LenderRejectedError({
      ...init,
      code: "rejected",
      message: `PayBright rejected the ${operation} (400)${said}`,
    })
  }
  if (status === 401 || status === 403) {
    return new LenderAuthError({
      ...init,
      code: "unauthorized",
      message: `PayBright did not accept the API key and token for the ${operation} (${status}); check the provider's apiKey and apiToken options`,
    })
  }
  if (status === 404) {
    return new LenderNotFoundError({
      ...init,
      code: "not_found",
      message: `PayBright does not know this contract (${operation}, 404)${said}`,
    })
  }
  if (status === 429 || status >= 500) {
    return new LenderUnavailableError({
      ...init,
      code: "unavailable",
      message: `PayBright is unavailable for the ${operation} (${status}); try again later${said}`,
    })
  }
  return new LenderError({
    ...init,
    code: "unexpected_status",
    message: `PayBright answered the ${operation} with status ${status}${said}`,
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
