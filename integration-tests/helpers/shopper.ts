import type { AxiosInstance } from "axios"
import type { SeededStore } from "../../test-support/seed-store"
import { SHOPPER_ADDRESS } from "../../test-support/shopper-address"

export type ShopperCart = { id: string; total: number; paymentCollectionId: string }
export type PayBrightSession = {
  id: string
  data: {
    session_id: string
    amount: string
    currency: string
    redirect: { url: string; method: "POST"; fields: Record<string, string> }
    [key: string]: unknown
  }
}

/** Who buys: the Toronto shopper (13 % HST) unless another address is given; promotion codes to apply. */
export type Shopper = { address?: typeof SHOPPER_ADDRESS; promoCodes?: string[] }

/** A shopper's cart through the Store API, ready to pay: items, addresses, email, promotions, shipping. */
export async function cartReadyForPayment(
  api: AxiosInstance,
  store: SeededStore,
  items: { variantIndex: number; quantity: number }[] = [{ variantIndex: 0, quantity: 1 }],
  { address = SHOPPER_ADDRESS, promoCodes }: Shopper = {}
): Promise<ShopperCart> {
  const headers = storeHeaders(store)
  // The items with the cart, in one request the Store API takes: each line added on its own
  // recomputes the whole cart once more, the costliest step of a test's checkout.
  const {
    data: { cart },
  } = await api.post(
    "/store/carts",
    {
      region_id: store.regionId,
      email: "jeanne@example.com",
      shipping_address: address,
      billing_address: address,
      items: items.map((item) => ({ variant_id: store.variants[item.variantIndex].id, quantity: item.quantity })),
    },
    headers
  )
  if (promoCodes?.length) {
    await api.post(`/store/carts/${cart.id}/promotions`, { promo_codes: promoCodes }, headers)
  }
  await api.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: store.shippingOptionId }, headers)
  const {
    data: { payment_collection },
  } = await api.post("/store/payment-collections", { cart_id: cart.id }, headers)
  const { data } = await api.get(`/store/carts/${cart.id}`, headers)
  return { id: cart.id, total: data.cart.total, paymentCollectionId: payment_collection.id }
}

/** Picks PayBright at checkout: the Store API answers the session with its redirect. */
export async function choosePayBright(
  api: AxiosInstance,
  store: SeededStore,
  cart: ShopperCart,
  data?: Record<string, unknown>,
  providerId = "pp_paybright_paybright"
): Promise<PayBrightSession> {
  const {
    data: { payment_collection },
  } = await api.post(
    `/store/payment-collections/${cart.paymentCollectionId}/payment-sessions`,
    { provider_id: providerId, ...(data ? { data } : {}) },
    storeHeaders(store)
  )
  return payment_collection.payment_sessions[0]
}

/** What the storefront does last: asks the Store API to place the order. */
export async function completeCart(api: AxiosInstance, store: SeededStore, cartId: string) {
  return api.post(`/store/carts/${cartId}/complete`, {}, { ...storeHeaders(store), validateStatus: () => true })
}

export function storeHeaders(store: SeededStore) {
  return { headers: { "x-publishable-api-key": store.publishableKey } }
}
