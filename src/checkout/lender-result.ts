import { normalizeAmount, isAmount } from "../lender/amount"
import { applicationOutcome, applicationResultSchema, issuePaths, type ApplicationResult } from "../lender/schemas"
import { verifySignature } from "../lender/signing"

/** What a result must match: the session it claims to approve, as Medusa stored it. */
export type ExpectedApplication = {
  apiKey: string
  apiToken: string
  sessionId: string
  amount: string
  currency: string
  test: boolean
}

export type ApplicationVerdict =
  | { verified: true; outcome: "completed"; result: ApplicationResult }
  | { verified: true; outcome: "failed" | "pending" | "unknown"; result: ApplicationResult; reason: string }
  | { verified: false; reason: string }

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
 * Whether a result's transaction type suits the capture mode. In-store capture needs an account
 * with separate authorization and capture (x_transaction_type "authorization"); an auto-capture
 * account's result carries none, and the lender has already paid the merchant for it.
 */
export function acceptsTransactionType(
  result: Pick<ApplicationResult, "x_transaction_type">,
  captureMode: "in_store" | "virtual_card"
): boolean {
  const type = result.x_transaction_type?.trim().toLowerCase()
  return captureMode === "virtual_card" ? !type || type === "authorization" : type === "authorization"
}

/** What the plugin verified of an approval, as it keeps it (sealed) in the payment session. */
export type ApprovalFacts = {
  session_id: string
  contract: string
  amount: string
  currency: string
  test: boolean
  transaction_type: string | null
  approved_at: string
  verified_at: string
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

/**
 * Checks a result from the hosted application. Only the signature is checked before anything
 * is read; then the result must be for this account, this session, this amount, currency and
 * test flag. The verdict says why when it is not an approval.
 */
export function verifyApplicationResult(
  input: unknown,
  expected: Omit<ExpectedApplication, "sessionId" | "amount" | "currency"> & Partial<ExpectedApplication>
): ApplicationVerdict {
  const fields = lenderFieldsOf(input)
  if (!fields || !fields.x_signature) {
    return { verified: false, reason: "no signed PayBright fields" }
  }
  if (!verifySignature(fields, expected.apiToken)) {
    return { verified: false, reason: "the signature does not match the API token" }
  }
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
    return { verified: true, outcome, result }
  }
  return {
    verified: true,
    outcome,
    result,
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
