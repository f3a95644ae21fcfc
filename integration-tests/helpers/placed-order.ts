import type { AxiosInstance } from "axios"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import { follow, submitApplication } from "./hosted-application"
import { orderPayment } from "./ledger"
import type { SeededStore } from "../../test-support/seed-store"
import { cartReadyForPayment, choosePayBright, type Shopper } from "./shopper"
import { orderIdOf } from "../../test-support/storefront"

/** A shopper's order paid with PayBright, as the admin sees it, with its payment and contract. */
export async function placePayBrightOrder(
  api: AxiosInstance,
  container: MedusaContainer,
  store: SeededStore,
  simulator: Simulator,
  admin: { headers: Record<string, string> },
  lines: { variantIndex: number; quantity: number }[],
  providerId = "pp_paybright_paybright",
  shopper: Shopper = {}
) {
  const cart = await cartReadyForPayment(api, store, lines, shopper)
  const session = await choosePayBright(api, store, cart, undefined, providerId)
  const back = await follow((await submitApplication(session.data.redirect)).location!)
  const orderId = orderIdOf(back.location)
  // Whole items (`*items`): Medusa 2.18 answers no quantities or totals for items whose fields are
  // named one by one beside the order's total.
  const { data } = await api.get(`/admin/orders/${orderId}?fields=id,display_id,total,*items`, admin)
  const payment = await orderPayment(container, orderId)
  return { order: data.order, payment, reference: simulator.contractByReference(session.id)!.gateway_reference }
}

/** The order most suites ship: a sofa (the store's first variant) and three lamps (its second). */
export const SOFA_AND_THREE_LAMPS = [
  { variantIndex: 0, quantity: 1 },
  { variantIndex: 1, quantity: 3 },
]
