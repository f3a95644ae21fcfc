import { ZodError } from "zod"
import { said, type Said } from "./texts/said"
import { messageOf } from "./texts/log-text"
import { CardProcessorError } from "./card-processor-types"
import { LenderDeclinedError, LenderError, LenderResponseError, type FailureOutcome } from "../lenders/errors"

/** A failed capture, refund, charge or card refund, as facts. */
export type Failure = { outcome: FailureOutcome; fact: Said | string; evidence?: Record<string, string> }

/** A run of 12 to 19 digits: what a card number looks like, wherever it turns up. */
const DIGIT_RUN = /\d{12,19}/g

/** Replaces every run of 12–19 digits, so no card number reaches a log, a row or a response. */
export function redactDigitRuns(text: string): string {
  return text.replace(DIGIT_RUN, "[redacted]")
}

/**
 * What a failure of a money movement means. Errors the plugin's own layers raise carry their
 * outcome; a request that failed validation never left; anything else (a store's own processor
 * throwing something unexpected) may have moved money, so it is in doubt.
 */
export function classifyFailure(error: unknown): Failure {
  if (error instanceof LenderError) {
    const evidence = {
      ...(error instanceof LenderResponseError || error instanceof LenderDeclinedError ? error.evidence : {}),
      // The merchant reads the lender's words; the status is kept beside its evidence.
      ...(error.status !== undefined ? { http_status: String(error.status) } : {}),
    }
    return { outcome: error.outcome, fact: error.said, ...(Object.keys(evidence).length ? { evidence } : {}) }
  }
  if (error instanceof CardProcessorError) {
    return { outcome: error.outcome, fact: redactDigitRuns(error.message) }
  }
  if (error instanceof ZodError) {
    return { outcome: "refused", fact: said("request_invalid") }
  }
  const message = messageOf(error)
  return { outcome: "in_doubt", fact: redactDigitRuns(`unexpected error: ${message}`).slice(0, 300) }
}
