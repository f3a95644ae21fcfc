import type { PayBrightCheckoutStatus } from "../storefront/messages"
import type { ApplicationResultOutcome } from "./lender-result-decision"

export type StorefrontSettings = {
  storefrontUrl: string
  storefrontPaths: { orderConfirmed: string; checkout: string }
  shopCountry: string
}

/**
 * Why a shopper is back at checkout, as the storefront reads it from `paybright_status`; the
 * storefront kit writes the sentence for each (`payBrightStatusMessage`):
 * - `declined`: the lender said no;
 * - `cancelled`: the shopper left the application;
 * - `pending`: the lender has not decided yet;
 * - `processing`: the order is still being placed (show the order later, or reload);
 * - `expired`: the payment session was replaced or the cart changed while the shopper applied: apply again;
 * - `error`: the result could not be used (the store logged why): choose a payment method again.
 */
export type CheckoutStatus = PayBrightCheckoutStatus

/** The order confirmation page. */
export function confirmationUrl(settings: StorefrontSettings, orderId: string, countryCode?: string): string {
  return fill(settings, settings.storefrontPaths.orderConfirmed, { orderId, countryCode })
}

/** The checkout page with `paybright_status` telling the storefront what happened; never a cart id. */
export function checkoutUrl(settings: StorefrontSettings, status: CheckoutStatus, countryCode?: string): string {
  const url = new URL(fill(settings, settings.storefrontPaths.checkout, { countryCode }))
  url.searchParams.set("paybright_status", status)
  return url.toString()
}

function fill(settings: StorefrontSettings, path: string, place: { orderId?: string; countryCode?: string }) {
  const country = (place.countryCode ?? settings.shopCountry.slice(0, 2)).toLowerCase()
  const filled = path
    .replaceAll("{order_id}", encodeURIComponent(place.orderId ?? ""))
    .replaceAll("{country_code}", encodeURIComponent(country))
  return `${settings.storefrontUrl}${filled}`
}

/** Where the shopper goes after the hosted application: the order, or checkout with a status. */
export function shopperDestination(settings: StorefrontSettings, outcome: ApplicationResultOutcome): string {
  switch (outcome.kind) {
    case "placed":
      return confirmationUrl(settings, outcome.orderId, outcome.countryCode)
    case "processing":
    case "declined":
    case "pending":
      return checkoutUrl(settings, outcome.kind, outcome.countryCode)
    case "orphaned":
      // A replaced session or a changed cart: the shopper can simply apply again.
      return checkoutUrl(
        settings,
        outcome.reason === "session_replaced" || outcome.reason === "cart_changed" ? "expired" : "error",
        outcome.countryCode
      )
    default:
      return checkoutUrl(settings, "error")
  }
}
