import type { AxiosInstance } from "axios"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { ContractBooks, Simulator } from "../../src/lenders/paybright/simulator"
import { follow, submitApplication } from "./hosted-application"
import { orderPayment } from "./ledger"
import type { SeededStore } from "../../test-support/seed-store"
import { cartReadyForPayment, choosePayBright, type Shopper } from "./shopper"
import type { FakeStripe, FakeStripeBooks } from "../../test-support/fake-stripe"
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

/** The order the money and void suites begin with: a sofa (the store's first variant) and two lamps (its second). */
export const SOFA_AND_TWO_LAMPS = [
  { variantIndex: 0, quantity: 1 },
  { variantIndex: 1, quantity: 2 },
]

/** The order most suites ship: a sofa (the store's first variant) and three lamps (its second). */
export const SOFA_AND_THREE_LAMPS = [
  { variantIndex: 0, quantity: 1 },
  { variantIndex: 1, quantity: 3 },
]

/** The books outside Medusa a placed order lives in: the lender's, and the card processor's where a virtual card is charged. */
export type OutsideBooks = { simulator: Simulator; stripe?: FakeStripe }

/**
 * `place` for a suite's tests, with the first order of each test that asks for `preplaced` (the
 * arguments) placed once for the whole suite. Placing one (a cart, the lender's application,
 * Medusa's completion) costs about 2 s, and most tests begin with one. It is placed in a
 * `beforeAll` that runs before the suite's database is snapshotted (onOneApp takes it after the
 * suite's own `beforeAll`s), so Medusa's runner gives every test the order as it was placed; the
 * lender's contract, and the card processor's books where there is one, are put back to that
 * moment, their armed faults gone. A test's next orders, and orders with other arguments, are
 * placed as it asks. A test that changes what placing depends on (a setting saved in the admin)
 * places its order with other arguments. `place` may also stop short of the order: an approval the
 * lender has not delivered yet (completion-failures.suite.ts).
 */
export function placedOncePerSuite<Args extends unknown[], Placed extends { reference: string }>(
  outside: () => OutsideBooks,
  place: (...args: Args) => Promise<Placed>,
  ...preplaced: NoInfer<Args>
): (...args: Args) => Promise<Placed> {
  let placed: { order: Placed; lender: ContractBooks; stripe?: FakeStripeBooks } | undefined
  let untouched = false
  beforeAll(async () => {
    const order = await place(...preplaced)
    const { simulator, stripe } = outside()
    placed = { order, lender: simulator.books(order.reference), stripe: stripe?.books() }
  })
  beforeEach(() => {
    const { simulator, stripe } = outside()
    simulator.restoreBooks(placed!.lender)
    if (placed!.stripe) stripe!.restoreBooks(placed!.stripe)
    untouched = true
  })
  return async (...args) => {
    if (!untouched || JSON.stringify(args) !== JSON.stringify(preplaced)) return place(...args)
    untouched = false
    return placed!.order
  }
}
