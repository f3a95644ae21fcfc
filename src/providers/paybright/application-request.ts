import { z } from "zod"
import { signFields } from "../../lenders/paybright/signing"
import type { PayBrightOptions } from "../../lib/options"
import { RETURN_ROUTES } from "../../lib/backend-routes"

/** Where the lender's hosted application lives on the checkout host (protocol.md §2). */
export const APPLICATION_PATH = "/CheckOut/ApplicationForm.aspx"

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
type AddressDetails = z.infer<typeof addressSchema>

/** What the storefront posts to the lender: `data.redirect` of the payment session. */
export type ApplicationRedirect = {
  url: string
  method: "POST"
  fields: Record<string, string>
}

/**
 * Builds the signed form that sends the shopper to the hosted application. `x_reference` is the
 * payment session id, so a result can only ever approve the session it was made for.
 */
export function buildApplicationRedirect(
  options: PayBrightOptions,
  input: { sessionId: string; amount: string; currency: string; applicant?: ApplicantDetails; returnToken: string }
): ApplicationRedirect {
  const base = options.backendUrl
  // The routes learn which checkout a result or a cancellation belongs to from this sealed token,
  // even once Medusa has deleted the session; it carries no cart id.
  const back = `?ctx=${encodeURIComponent(input.returnToken)}`
  const fields = signFields(
    {
      x_account_id: options.apiKey,
      x_amount: input.amount,
      x_currency: input.currency,
      x_reference: input.sessionId,
      x_shop_country: options.shopCountry,
      x_shop_name: options.shopName,
      x_test: String(options.test),
      x_url_callback: `${base}${RETURN_ROUTES.callback}${back}`,
      x_url_complete: `${base}${RETURN_ROUTES.complete}${back}`,
      x_url_cancel: `${base}${RETURN_ROUTES.cancel}${back}`,
      ...applicantFields(input.applicant),
    },
    options.apiToken
  )
  return { url: `${options.checkoutUrl}${APPLICATION_PATH}`, method: "POST", fields }
}

/**
 * Whether a pre-fill value may travel in the signed application. The lender signs name and value
 * run together with one key for both directions, so a value containing "x_" could make a signed
 * request read as a different set of fields, a result among them. Such a value stays out of the
 * application, and the shopper types it on the lender's page instead: an e-mail such as
 * alex_smith@… must never stop a shopper from paying.
 */
export function safeToSign(value: string): boolean {
  return !/x_/i.test(value)
}

function applicantFields(applicant?: ApplicantDetails): Record<string, string> {
  if (!applicant) {
    return {}
  }
  const billing = applicant.billing_address ?? undefined
  const shipping = applicant.shipping_address ?? undefined
  const fields: Record<string, string | null | undefined> = {
    x_customer_email: applicant.email,
    x_customer_first_name: applicant.first_name ?? billing?.first_name,
    x_customer_last_name: applicant.last_name ?? billing?.last_name,
    x_customer_phone: digitsOnly(applicant.phone ?? billing?.phone),
    ...addressFields("billing", billing),
    ...addressFields("shipping", shipping),
  }
  const prefill: Record<string, string> = {}
  for (const [name, value] of Object.entries(fields)) {
    if (value && safeToSign(value)) prefill[name] = value
  }
  return prefill
}

function addressFields(kind: "billing" | "shipping", address?: AddressDetails) {
  if (!address) {
    return {}
  }
  const prefix = `x_customer_${kind}_`
  return {
    [`${prefix}address1`]: address.address_1,
    [`${prefix}address2`]: address.address_2,
    [`${prefix}city`]: address.city,
    [`${prefix}company`]: address.company,
    [`${prefix}country`]: address.country_code?.toUpperCase(),
    [`${prefix}phone`]: digitsOnly(address.phone),
    [`${prefix}state`]: address.province?.toUpperCase(),
    [`${prefix}zip`]: address.postal_code,
    ...(kind === "shipping"
      ? { [`${prefix}first_name`]: address.first_name, [`${prefix}last_name`]: address.last_name }
      : {}),
  }
}

function digitsOnly(phone?: string | null) {
  const digits = phone?.replace(/\D/g, "")
  return digits || undefined
}
