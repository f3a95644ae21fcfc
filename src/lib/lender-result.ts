import { normalizeAmount, isAmount } from "./texts/amount"
import {
  applicationOutcome,
  applicationResultSchema,
  issuePaths,
  type ApplicationResult,
} from "../lenders/paybright/schemas"
import { verifySignature } from "../lenders/paybright/signing"

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

/** A registration a lender result may be signed for: the account and the token that signs it. */
export type ResultSigner = { options: { apiKey: string; apiToken: string } }

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
