/**
 * What the plugin asks of a point-of-sale lender, whoever it is; `src/lenders/paybright/`
 * implements it for PayBright. The money records, the movers of a payment's channel, the admin and
 * the storefront kit know a lender only through these types. A lender's failures are thrown as
 * LenderError (src/lenders/paybright/errors.ts), whose `outcome` says refused or in doubt.
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
   * Voids a contract's whole authorization, releasing the shopper's loan; the lender also posts
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

/** A lender, as the plugin uses it. */
export interface Lender {
  /** The lender's name, as merchants read it in every sentence about its money. */
  readonly name: string
  /** The lender's API for one account. */
  api(account: LenderAccount): LenderApi
  /** The signed form that sends the shopper to the lender's hosted application. */
  applicationRedirect(account: ApplicationAccount, request: ApplicationRequest): ApplicationRedirect
}
