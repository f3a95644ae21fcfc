import type Medusa from "@medusajs/js-sdk"
import type { SeededStore } from "./seed-store"
import { SHOPPER_ADDRESS } from "./shopper-address"
import { readPayBrightReturn } from "../src/storefront/return"
import { submit } from "./html-form"

export type Redirect = { url: string; method: string; fields: Record<string, string> }

/**
 * What a storefront does before payment, over the Store API: a cart with one of each product
 * named by index, the shopper's addresses and email, shipping, and the payment collection.
 * Shoppers buying at the same moment need their own emails: Medusa creates a guest customer per
 * email and two carts creating the same one at once collide.
 */
export async function cartReadyToPay(
  shop: Medusa,
  seeded: SeededStore,
  variantIndexes: number[],
  email = "jeanne.tremblay@example.com"
) {
  const { cart } = await shop.store.cart.create({
    region_id: seeded.regionId,
    email,
    shipping_address: SHOPPER_ADDRESS,
    billing_address: SHOPPER_ADDRESS,
  })
  for (const index of variantIndexes) {
    await shop.store.cart.createLineItem(cart.id, { variant_id: seeded.variants[index].id, quantity: 1 })
  }
  await shop.store.cart.addShippingMethod(cart.id, { option_id: seeded.shippingOptionId })
  const { payment_collection } = await shop.client.fetch<{ payment_collection: { id: string } }>(
    "/store/payment-collections",
    { method: "POST", body: { cart_id: cart.id } }
  )
  return { cartId: cart.id, paymentCollectionId: payment_collection.id }
}

/** The shopper picks a payment provider: the Store API creates its session. */
export async function createPaymentSession(shop: Medusa, paymentCollectionId: string, providerId: string) {
  const { payment_collection } = await shop.client.fetch<{
    payment_collection: { payment_sessions?: { id: string; provider_id: string; data: Record<string, unknown> }[] }
  }>(`/store/payment-collections/${paymentCollectionId}/payment-sessions`, {
    method: "POST",
    body: { provider_id: providerId },
  })
  const session = payment_collection.payment_sessions?.find((candidate) => candidate.provider_id === providerId)
  if (!session) throw new Error(`the payment collection has no ${providerId} session`)
  return session
}

/**
 * The shopper's browser posts the PayBright session's signed form to the lender, which decides
 * at once (simulator in "approve" mode) and answers the redirect back to the store: the return
 * URL with the signed result in its query.
 */
export async function applyAtPayBright(session: { data: Record<string, unknown> }): Promise<string> {
  const redirect = session.data.redirect as Redirect | undefined
  if (!redirect) throw new Error("the PayBright session has no data.redirect")
  const decided = await submit({ action: redirect.url, method: redirect.method ?? "POST", fields: redirect.fields })
  const location = decided.headers.get("location")
  if (decided.status !== 303 || !location) {
    throw new Error(`the lender answered ${decided.status} (is the simulator in "approve" mode?)`)
  }
  return location
}

/** The shopper's browser back at the store; answers the order id the storefront's return route is given. */
export async function returnToStore(returnUrl: string): Promise<string | undefined> {
  const back = await fetch(returnUrl, { redirect: "manual" })
  await back.arrayBuffer()
  const location = back.headers.get("location") ?? ""
  if (back.status !== 303) {
    throw Object.assign(new Error(`/paybright/return answered ${back.status}`), { status: back.status })
  }
  return location && readPayBrightReturn(location).kind === "order" ? orderIdOf(location) : undefined
}

/** The order id the plugin's return sends the shopper's browser to the storefront with; throws for any other return. */
export function orderIdOf(storefrontUrl: string | undefined): string {
  const landed = storefrontUrl ? readPayBrightReturn(storefrontUrl) : undefined
  if (landed?.kind !== "order") throw new Error(`the shopper was sent to ${storefrontUrl}, not to a placed order`)
  return landed.orderId
}
