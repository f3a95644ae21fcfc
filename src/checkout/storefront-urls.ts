import type { ApplicationResultOutcome } from "./handle-application-result"

export type StorefrontSettings = {
  storefrontUrl: string
  storefrontPaths: { orderConfirmed: string; checkout: string }
  shopCountry: string
}

/** Why a shopper is back at checkout, as the storefront reads it from `paybright_status`. */
export type CheckoutReturnReason = "declined" | "cancelled" | "pending" | "processing" | "error"

/** Where the shopper goes after the hosted application. */
export function storefrontRedirect(settings: StorefrontSettings, outcome: ApplicationResultOutcome): string {
  if (outcome.kind === "placed") {
    return fill(settings, settings.storefrontPaths.orderConfirmed, outcome)
  }
  const reason: CheckoutReturnReason =
    outcome.kind === "declined" || outcome.kind === "pending" || outcome.kind === "processing" ? outcome.kind : "error"
  return checkoutRedirect(settings, reason, "cartId" in outcome ? outcome : {})
}

/** The checkout page with `paybright_status` telling the storefront what happened. */
export function checkoutRedirect(
  settings: StorefrontSettings,
  reason: CheckoutReturnReason,
  place: { cartId?: string; countryCode?: string }
): string {
  const url = new URL(fill(settings, settings.storefrontPaths.checkout, place))
  url.searchParams.set("paybright_status", reason)
  if (place.cartId) {
    url.searchParams.set("cart_id", place.cartId)
  }
  return url.toString()
}

function fill(
  settings: StorefrontSettings,
  path: string,
  place: { orderId?: string; cartId?: string; countryCode?: string }
) {
  const country = (place.countryCode ?? settings.shopCountry.slice(0, 2)).toLowerCase()
  const filled = path
    .replaceAll("{order_id}", encodeURIComponent(place.orderId ?? ""))
    .replaceAll("{cart_id}", encodeURIComponent(place.cartId ?? ""))
    .replaceAll("{country_code}", encodeURIComponent(country))
  return `${settings.storefrontUrl}${filled}`
}
