/**
 * What the plugin asks of a point-of-sale lender, whoever it is; `src/lenders/paybright/`
 * implements it for PayBright. The money records, the movers of a payment's channel, the admin and
 * the storefront kit know a lender only through these types. A lender's failures are thrown as
 * LenderError (src/lenders/errors.ts), whose `outcome` says refused or in doubt.
 */

import { z } from "zod"

const text = z.string().trim().max(200).nullish().catch(undefined)
const addressSchema = z.object({
  first_name: text,
  last_name: text,
  company: text,
  address_1: text,
  address_2: text,
  city: text,
  province: text,
  postal_code: text,
  country_code: text,
  phone: text,
})

/** Optional shopper details that pre-fill the application: text only, anything else dropped. */
export const applicantSchema = z.object({
  email: text,
  first_name: text,
  last_name: text,
  phone: text,
  billing_address: addressSchema.nullish().catch(undefined),
  shipping_address: addressSchema.nullish().catch(undefined),
})
export type ApplicantDetails = z.infer<typeof applicantSchema>
export type AddressDetails = z.infer<typeof addressSchema>

/** The account's side of a hosted application: who applies for whom, and how the form is signed. */
export type ApplicationAccount = {
  apiKey: string
  apiToken: string
  checkoutUrl: string
  shopName: string
  shopCountry: string
  test: boolean
}

/** One application: for a payment session, its amount, the shopper's details, and where the lender answers. */
export type ApplicationRequest = {
  /** The merchant's reference, which the lender's result carries back: the payment session's id. */
  reference: string
  amount: string
  currency: string
  applicant?: ApplicantDetails
  /** The plugin's routes: the callback the lender posts to, and where the shopper returns or cancels. */
  urls: { callback: string; complete: string; cancel: string }
}

/** What the storefront posts to the lender: `data.redirect` of the payment session. */
export type ApplicationRedirect = {
  url: string
  method: "POST"
  fields: Record<string, string>
}

/** A lender's answer to a movement it made: its own fields, as strings, kept as the record's evidence. */
export type LenderEvidence = Record<string, string>

/** One movement of a contract's money, as the plugin asks the lender for it. */
export type ContractMovement = {
  /** The lender's contract (PayBright's x_gateway_reference). */
  contract: string
  /** The merchant's reference the application carried: the payment session's id. */
  reference: string
  /** Two decimals, whole cents. */
  amount: string
  currency: string
  /** Whether the contract is the lender's test one. */
  test: boolean
}

/** The single-use card a lender issued for a contract, to be charged through the merchant's processor. */
export type ContractCard = {
  card_token: string
  created: string
  /** MMYY. */
  expiration: string
  cvv: string
  pan: string
  cardholder_name: string
  billing_address: { address1: string; city: string; state: string; postal_code: string; country: string }
}

/** A lender's API for one merchant account. */
export interface LenderApi {
  /** Captures part or all of a contract's authorization at the lender (in-store capture). */
  capture(movement: ContractMovement): Promise<LenderEvidence>
  /** Refunds part of what was captured on a contract. */
  refund(movement: Pick<ContractMovement, "contract" | "amount">): Promise<LenderEvidence>
  /**
   * Voids a contract's whole authorization, so the shopper carries no loan; the lender also posts
   * the result to `callbackUrl`.
   */
  void(movement: ContractMovement & { callbackUrl: string }): Promise<LenderEvidence>
  /** The contract's single-use card (issued only for a completed contract): safe to ask again. */
  card(contract: string): Promise<ContractCard>
  /**
   * Proves the account's credentials without reading or changing anything of a contract: resolves
   * when the lender accepts them, throws a LenderAuthError when it does not.
   */
  checkCredentials(): Promise<void>
}

/** The account a store holds with a lender, and how long a call may take. */
export type LenderAccount = {
  apiUrl: string
  checkoutUrl: string
  apiKey: string
  apiToken: string
  timeoutMs?: number
}

/** How a hosted application ended, as the lender's result says. */
export type ApplicationOutcome = "completed" | "pending" | "failed" | "unknown"

/** A result the lender signed, read in the plugin's words. */
export type LenderResult = {
  /** The lender's contract. */
  contract: string
  /** The merchant's reference the application carried: the payment session's id. */
  reference: string
  /** The lender account the result is for. */
  account: string
  /** The amount as the lender wrote it. */
  amount: string
  currency: string
  /** Whether the result is the lender's test one; undefined when the lender wrote neither. */
  test: boolean | undefined
  outcome: ApplicationOutcome
  /**
   * Whether the contract waits for the merchant's capture (true), was paid by the lender at once
   * (false: an auto-capture account), or the lender did not say (undefined).
   */
  awaitsCapture: boolean | undefined
  /** Fields only a merchant's request carries, which a result must not (a signed request replayed). */
  requestFields: string[]
  /** The fields as the lender signed them, kept as the approval's evidence. */
  fields: Record<string, string>
}

/** A registration a result may be signed for: the account and the token that signs its results. */
export type ResultSigner = { options: { apiKey: string; apiToken: string } }

/** A delivery to the plugin's callback or return route, read before anything is looked up. */
export type ResultReading<T extends ResultSigner> =
  /** Not the lender's for this store: unsigned (400), or signed by no candidate for its account (401). */
  | { kind: "rejected"; status: 400 | 401; reason: string }
  /** The lender's copy of its answer to the plugin's own order-management call (a void): no approval. */
  | { kind: "order_management"; signer: T; summary: string }
  /** Signed, but without the fields every result carries. */
  | { kind: "incomplete"; signer: T; reason: string }
  | { kind: "result"; signer: T; result: LenderResult }

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
  | { verified: true; outcome: "completed"; result: LenderResult }
  | { verified: true; outcome: "failed" | "pending" | "unknown"; result: LenderResult; reason: string }
  | { verified: false; reason: string }

/**
 * Whether a result's contract suits the capture mode. In-store capture needs a contract that waits
 * for the merchant's capture; the virtual card takes one unless the lender says it paid at once.
 */
export function suitsCaptureMode(
  result: Pick<LenderResult, "awaitsCapture">,
  captureMode: "in_store" | "virtual_card"
): boolean {
  return captureMode === "virtual_card" ? result.awaitsCapture !== false : result.awaitsCapture === true
}

/** A lender, as the plugin uses it. */
export interface Lender {
  /** The lender's name, as merchants read it in every sentence about its money. */
  readonly name: string
  /** The lender's API for one account. */
  api(account: LenderAccount): LenderApi
  /**
   * The longest one call can take with each call given `timeoutMs`: a movement, tried once; or a
   * read of the contract's card, with the tries the API makes of it. A lock held over a call must
   * last at least this long.
   */
  longestCallMs(timeoutMs: number, call: "movement" | "card_read"): number
  /** The signed form that sends the shopper to the lender's hosted application. */
  applicationRedirect(account: ApplicationAccount, request: ApplicationRequest): ApplicationRedirect
  /**
   * A delivery to the callback or return route, its signature checked against each candidate's
   * token before anything it says is read; a signer of its own account is preferred.
   */
  readResult<T extends ResultSigner>(input: unknown, candidates: T[]): ResultReading<T>
  /**
   * A result checked against the session it claims to approve (account, reference, amount,
   * currency, test flag); the session's fields left out are not compared.
   */
  verifyResult(
    input: unknown,
    expected: Omit<ExpectedApplication, "sessionId" | "amount" | "currency"> & Partial<ExpectedApplication>
  ): ApplicationVerdict
}
