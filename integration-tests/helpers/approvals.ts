import type { AxiosInstance } from "axios"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { PayBrightApprovalRecord } from "../../src/lib/admin-types"
import type { SeededStore } from "../../test-support/seed-store"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import { follow, submitApplication } from "./hosted-application"
import { cartReadyForPayment, choosePayBright } from "./shopper"

/**
 * A shopper approved for a session they replaced while applying (PayBright picked again: Medusa
 * deletes the first session), then back on the store: the approval can never become an order.
 */
export async function approvedForReplacedSession(api: AxiosInstance, store: SeededStore, simulator: Simulator) {
  const cart = await cartReadyForPayment(api, store)
  const session = await choosePayBright(api, store, cart)
  const approved = await submitApplication(session.data.redirect)
  await choosePayBright(api, store, cart)
  await follow(approved.location!)
  return { cart, contract: simulator.contractByReference(session.id)!.gateway_reference }
}

/** What the lender delivers: the result's fields, to the URL it was given (x_url_callback with its ctx). */
export type Delivery = { callbackUrl: string; fields: Record<string, string> }

/** Reads the lender's result from the return redirect: the fields, and where the callback goes. */
export function deliveryOf(returnLocation: string, callbackUrl: string): Delivery {
  const url = new URL(returnLocation)
  const fields = Object.fromEntries([...url.searchParams].filter(([name]) => name.startsWith("x_")))
  return { callbackUrl, fields }
}

/** The lender's server-to-server callback, as a form post. */
export function deliverCallback(delivery: Delivery, fields: Record<string, string> = delivery.fields) {
  return fetch(delivery.callbackUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  })
}

/** The admin's list of approvals in a state. */
export async function listApprovals(
  api: AxiosInstance,
  admin: { headers: Record<string, string> },
  state?: PayBrightApprovalRecord["state"]
): Promise<(PayBrightApprovalRecord & { message: string | null })[]> {
  const { data } = await api.get(`/admin/paybright/approvals?limit=100${state ? `&state=${state}` : ""}`, admin)
  return data.approvals
}

/** The approval of a contract, as the admin sees it. */
export async function approvalOf(
  api: AxiosInstance,
  admin: { headers: Record<string, string> },
  contract: string
): Promise<(PayBrightApprovalRecord & { message: string | null }) | undefined> {
  const all = await listApprovals(api, admin)
  return all.find((approval) => approval.contract === contract)
}

/**
 * An approved application whose result the test delivers itself: the shopper applied and was sent
 * back, and the lender's callback is the test's to make (a suite whose lender posts callbacks turns
 * them off first).
 */
export async function approvedAwaitingDelivery(api: AxiosInstance, store: SeededStore) {
  const cart = await cartReadyForPayment(api, store)
  const session = await choosePayBright(api, store, cart)
  const application = await submitApplication(session.data.redirect, "approve")
  const delivery = deliveryOf(application.location!, session.data.redirect.fields.x_url_callback)
  return { cart, session, returnUrl: application.location!, delivery, contract: delivery.fields.x_gateway_reference }
}

/** The orders a cart became, read from Medusa's link (more than one would be a double order). */
export async function ordersOfCart(container: MedusaContainer, cartId: string): Promise<string[]> {
  const { data } = await container
    .resolve("query")
    .graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  return data.map((link: { order_id: string }) => link.order_id)
}

export async function orderOfCart(container: MedusaContainer, cartId: string): Promise<string | undefined> {
  return (await ordersOfCart(container, cartId))[0]
}
