import type {
  AddressDetails,
  ApplicantDetails,
  ApplicationAccount,
  ApplicationRedirect,
  ApplicationRequest,
} from "../lender"
import { signFields } from "./signing"

/** Where the lender's hosted application lives on the checkout host (protocol.md §2). */
export const APPLICATION_PATH = "/CheckOut/ApplicationForm.aspx"

/**
 * Builds the signed form that sends the shopper to the hosted application. `x_reference` is the
 * payment session id, so a result can only ever approve the session it was made for.
 */
export function buildApplicationRedirect(
  account: ApplicationAccount,
  request: ApplicationRequest
): ApplicationRedirect {
  const fields = signFields(
    {
      x_account_id: account.apiKey,
      x_amount: request.amount,
      x_currency: request.currency,
      x_reference: request.reference,
      x_shop_country: account.shopCountry,
      x_shop_name: account.shopName,
      x_test: String(account.test),
      x_url_callback: request.urls.callback,
      x_url_complete: request.urls.complete,
      x_url_cancel: request.urls.cancel,
      ...applicantFields(request.applicant),
    },
    account.apiToken
  )
  return { url: `${account.checkoutUrl}${APPLICATION_PATH}`, method: "POST", fields }
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
