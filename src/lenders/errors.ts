import { english, nested, said, verbatim, type Said } from "../lib/texts/said"
/**
 * What a call that moves money ended in. Decided here, from facts only (the HTTP status, whether
 * a request left, what the answer said); what a merchant reads is written from it elsewhere
 * (src/lib/merchant-messages.ts), so no layer can add advice that contradicts another.
 *
 * - `done`: the lender (or the card processor) answered 200, a success result, echoes equal.
 * - `refused`: certainly not done: never sent, 400, 401/403, 404, 429, 200 with a non-success
 *   result, a card decline.
 * - `in_doubt`: it may have been done: timeout, connection dropped after sending, 5xx, any other
 *   status, a 2xx whose body cannot be read or whose echoes differ, a charge still processing.
 */
export type MoneyOutcome = "done" | "refused" | "in_doubt"

/** The two outcomes a failure can have. */
export type FailureOutcome = Exclude<MoneyOutcome, "done">

/**
 * Errors raised when talking to the lender. They carry facts: the HTTP status, the lender's own
 * words, whether the lender may have acted; never the request's credentials, headers or card data,
 * and never advice. The message is what a merchant may read, so the status stays in `status`
 * (a money record keeps it with the lender's evidence).
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
  /** Whether the lender certainly did nothing (`refused`) or may have acted (`in_doubt`). */
  readonly outcome: FailureOutcome
  /** Seconds the lender asked to wait (429's Retry-After), when it said. */
  readonly retryAfterSeconds?: number
  /** The message as a sentence the admin writes in its language (src/lib/texts/said.ts). */
  readonly said: Said

  constructor(init: {
    code: string
    message: string
    operation: string
    outcome: FailureOutcome
    status?: number
    lenderMessage?: string
    retryAfterSeconds?: number
    said?: Said
  }) {
    super(init.said ? english(init.said) : init.message)
    this.name = new.target.name
    this.code = init.code
    this.status = init.status
    this.lenderMessage = init.lenderMessage
    this.operation = init.operation
    this.outcome = init.outcome
    this.retryAfterSeconds = init.retryAfterSeconds
    this.said = init.said ?? verbatim(init.message)
  }
}

/** 400: the lender refused the request as invalid (for capture: the order was not captured). */
export class LenderRejectedError extends LenderError {}
/** 401/403: the API key or token was not accepted. */
export class LenderAuthError extends LenderError {}
/** 404: the contract or resource is unknown to the lender. */
export class LenderNotFoundError extends LenderError {}
/** 5xx or 429: the lender is failing or busy. */
export class LenderUnavailableError extends LenderError {}
/**
 * No answer: timeout, refused connection, DNS. `maybeDone` is true when the request may have
 * reached the lender (a timeout or a dropped connection).
 */
export class LenderNetworkError extends LenderError {
  readonly maybeDone: boolean

  constructor(init: Omit<ConstructorParameters<typeof LenderError>[0], "outcome"> & { maybeDone: boolean }) {
    super({ ...init, outcome: init.maybeDone ? "in_doubt" : "refused" })
    this.maybeDone = init.maybeDone
  }
}
/**
 * The lender answered 2xx with a body that cannot be read, lacks a field, or echoes something
 * other than what was sent: it may have acted, so the outcome is in doubt.
 */
export class LenderResponseError extends LenderError {
  /** The fields the lender did answer, kept as evidence (never card data: only capture/refund answers). */
  readonly evidence?: Record<string, string>

  constructor(
    init: Omit<ConstructorParameters<typeof LenderError>[0], "outcome"> & { evidence?: Record<string, string> }
  ) {
    super({ ...init, outcome: "in_doubt" })
    this.evidence = init.evidence
  }
}
/** 200 with a result that is not a success: the lender says it did not do it. */
export class LenderDeclinedError extends LenderError {
  readonly evidence?: Record<string, string>

  constructor(
    init: Omit<ConstructorParameters<typeof LenderError>[0], "outcome"> & { evidence?: Record<string, string> }
  ) {
    super({ ...init, outcome: "refused" })
    this.evidence = init.evidence
  }
}

/**
 * What the lender answered, as a sentence: `lender_<code>` with the operation and the lender's own
 * words, kept as they came.
 */
export function lenderFact(code: string, operation: string, lenderWords?: string): Said {
  return said(`lender_${code}`, {
    operation: OPERATIONS.has(operation) ? nested(said(`op_${operation}`)) : operation,
    words: lenderWords ? nested(said("lender_words", { text: lenderWords })) : undefined,
  })
}

const OPERATIONS = new Set(["capture", "refund", "void"])
