import { normalizeAmount, isAmount } from "../../lib/texts/amount"
import { applicationOutcome, applicationResultSchema, issuePaths, type ApplicationResult } from "./schemas"
import type { ApplicationVerdict, ExpectedApplication, LenderResult, ResultReading, ResultSigner } from "../lender"
import { forLog } from "../../lib/texts/log-text"
import { verifySignature } from "./signing"

/**
 * Fields only the merchant's signed request carries. The same API token signs the request and the
 * result, so a result carrying them may be a signed request replayed as a result: it is refused.
 */
const REQUEST_ONLY_FIELD = /^x_(customer|url|shop)_/i

/** The request-only fields a result carries, if any. */
export function requestOnlyFieldsOf(fields: Record<string, string>): string[] {
  return Object.keys(fields).filter((name) => REQUEST_ONLY_FIELD.test(name))
}

/**
 * Whether signed fields are the result of an order-management call (a void the plugin asked for),
 * which the lender also posts to the callback route: an answer to the plugin's own call, never an
 * approval.
 */
export function isOrderManagementResult(fields: Record<string, string>): boolean {
  return ORDER_MANAGEMENT_TYPES.has(fields.x_transaction_type?.trim().toLowerCase() ?? "")
}
const ORDER_MANAGEMENT_TYPES = new Set(["void", "capture", "refund"])

/**
 * Whether the contract waits for the merchant's capture: an account with separate authorization
 * and capture answers x_transaction_type "authorization"; an auto-capture account's result carries
 * none, and the lender has already paid the merchant for it.
 */
function awaitsCaptureOf(result: Pick<ApplicationResult, "x_transaction_type">): boolean | undefined {
  const type = result.x_transaction_type?.trim().toLowerCase()
  return type ? type === "authorization" : undefined
}

/** A parsed result in the plugin's words. */
function lenderResultOf(result: ApplicationResult, fields: Record<string, string>): LenderResult {
  return {
    contract: result.x_gateway_reference,
    reference: result.x_reference,
    account: result.x_account_id,
    amount: result.x_amount,
    currency: result.x_currency,
    test: ({ true: true, false: false } as Record<string, boolean>)[result.x_test.trim().toLowerCase()],
    outcome: applicationOutcome(result),
    awaitsCapture: awaitsCaptureOf(result),
    requestFields: requestOnlyFieldsOf(fields),
    fields,
  }
}

/** Reads the lender's signed fields out of an untrusted record: strings only, `x_` names only. */
export function lenderFieldsOf(input: unknown): Record<string, string> | undefined {
  if (!input || typeof input !== "object" || Array.isArray(input)) {
    return undefined
  }
  const fields: Record<string, string> = {}
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    if (!name.startsWith("x_")) {
      continue
    }
    // A repeated or nested field cannot be what the lender signed.
    if (typeof value !== "string") {
      return undefined
    }
    fields[name] = value
  }
  return fields
}

export type Authentication<T extends ResultSigner> =
  | {
      authentic: true
      fields: Record<string, string>
      /** The registration whose token signed the fields. */
      signer: T
      /** Whether the fields name that registration's own account (x_account_id). */
      ownAccount: boolean
    }
  | { authentic: false; status: 400 | 401; reason: string }

/**
 * The one authenticator of what the lender signs (a hosted-application result, the answer to an
 * order-management call), wherever it arrives: the callback and return routes (through
 * handleApplicationResult), the provider's updatePayment, which seals a verified approval into the
 * session, and getWebhookActionAndData (both through verifyApplicationResult). Strings only, `x_`
 * names only, a signature and a reference; then the signature against each candidate's token,
 * before anything the fields say is read or looked up. A signer of the fields' own account is
 * preferred; the caller decides what a signature of another account's token means.
 */
export function authenticateLenderResult<T extends ResultSigner>(input: unknown, candidates: T[]): Authentication<T> {
  const fields = lenderFieldsOf(input)
  if (!fields?.x_signature || !fields.x_reference) {
    return { authentic: false, status: 400, reason: "no signed PayBright fields" }
  }
  const signers = candidates.filter((candidate) => verifySignature(fields, candidate.options.apiToken))
  const signer = signers.find((candidate) => candidate.options.apiKey === fields.x_account_id) ?? signers[0]
  if (!signer) {
    return { authentic: false, status: 401, reason: "the signature does not match the API token" }
  }
  return { authentic: true, fields, signer, ownAccount: signer.options.apiKey === fields.x_account_id }
}

/**
 * Checks a result from the hosted application. Only the signature is checked before anything
 * is read; then the result must be for this account, this session, this amount, currency and
 * test flag. The verdict says why when it is not an approval.
 */
export function verifyApplicationResult(
  input: unknown,
  expected: Omit<ExpectedApplication, "sessionId" | "amount" | "currency"> & Partial<ExpectedApplication>
): ApplicationVerdict {
  const authenticated = authenticateLenderResult(input, [{ options: expected }])
  if (!authenticated.authentic) {
    return { verified: false, reason: authenticated.reason }
  }
  const { fields } = authenticated
  const requestOnly = requestOnlyFieldsOf(fields)
  if (requestOnly.length > 0) {
    return { verified: false, reason: `a result cannot carry request fields (${requestOnly.join(", ")})` }
  }
  const parsed = applicationResultSchema.safeParse(fields)
  if (!parsed.success) {
    return { verified: false, reason: `signed fields are incomplete (${issuePaths(parsed.error).join(", ")})` }
  }
  const result = parsed.data
  const mismatch = mismatchOf(result, expected)
  if (mismatch) {
    return { verified: false, reason: mismatch }
  }
  const outcome = applicationOutcome(result)
  if (outcome === "completed") {
    return { verified: true, outcome, result: lenderResultOf(result, fields) }
  }
  return {
    verified: true,
    outcome,
    result: lenderResultOf(result, fields),
    reason: `the application ${outcome === "unknown" ? `ended with result "${result.x_result}"` : `is ${outcome}`}`,
  }
}

function mismatchOf(
  result: ApplicationResult,
  expected: Partial<ExpectedApplication> & { apiKey: string; test: boolean }
): string | undefined {
  if (result.x_account_id !== expected.apiKey) {
    return "the result is for another PayBright account"
  }
  if (expected.sessionId !== undefined && result.x_reference !== expected.sessionId) {
    return `the result is for reference ${result.x_reference}, not this payment session`
  }
  if (result.x_test.toLowerCase() !== String(expected.test)) {
    return `the result's test flag is ${result.x_test}, the store's is ${expected.test}`
  }
  if (expected.currency !== undefined && result.x_currency.toUpperCase() !== expected.currency.toUpperCase()) {
    return `the result is in ${result.x_currency}, the session in ${expected.currency}`
  }
  if (expected.amount !== undefined) {
    if (!isAmount(result.x_amount) || normalizeAmount(result.x_amount) !== normalizeAmount(expected.amount)) {
      return `the result is for ${result.x_amount}, the session for ${expected.amount}`
    }
  }
  return undefined
}

/**
 * A delivery to the callback or return route, read before anything is looked up: not signed for
 * this store (400, 401), the lender's copy of the answer to the plugin's own order-management
 * call, signed but incomplete, or a result in the plugin's words. A result signed by a
 * registration of another account is refused as not verifying.
 */
export function readLenderResult<T extends ResultSigner>(input: unknown, candidates: T[]): ResultReading<T> {
  const authenticated = authenticateLenderResult(input, candidates)
  if (!authenticated.authentic) {
    return authenticated.status === 400
      ? { kind: "rejected", status: 400, reason: "no signed PayBright result" }
      : {
          kind: "rejected",
          status: 401,
          reason: `the signature does not verify (reference ${forLog(referenceOf(input))})`,
        }
  }
  const { fields, signer } = authenticated
  if (!authenticated.ownAccount) {
    return {
      kind: "rejected",
      status: 401,
      reason: `the signature does not verify (reference ${forLog(fields.x_reference)})`,
    }
  }
  if (isOrderManagementResult(fields)) {
    return {
      kind: "order_management",
      signer,
      summary: `the ${forLog(fields.x_transaction_type)} result of contract ${forLog(fields.x_gateway_reference ?? "?")} (${forLog(fields.x_result ?? "?")})`,
    }
  }
  const parsed = applicationResultSchema.safeParse(fields)
  if (!parsed.success) {
    return {
      kind: "incomplete",
      signer,
      reason: `signed fields are incomplete (${issuePaths(parsed.error).join(", ")})`,
    }
  }
  return { kind: "result", signer, result: lenderResultOf(parsed.data, fields) }
}

/** The reference a rejected input claims, for the log only. */
function referenceOf(input: unknown): string {
  const reference = (input as { x_reference?: unknown } | null)?.x_reference
  return typeof reference === "string" ? reference : "?"
}
