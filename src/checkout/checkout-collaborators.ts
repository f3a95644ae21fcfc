import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import type { OrphanReason } from "../modules/paybright/approval-reasons"
import { PAYBRIGHT_MODULE } from "../modules/paybright"
import type PayBrightModuleService from "../modules/paybright/service"
import type { PayBrightOptions } from "../settings/options"
import { providersInForce } from "../settings/provider-registry"
import {
  markApprovalOrderedWorkflow,
  orphanApprovalWorkflow,
  orphanUnplacedApprovalWorkflow,
  recordApprovalWorkflow,
  updatePayBrightSessionWorkflow,
} from "../workflows/approvals"
import type { ApprovalRecord, RecordApprovalInput } from "../approvals/approval-record"
import {
  cartOfCollection,
  countryOfCart,
  findCheckout,
  paymentsOfOrder,
  type Checkout,
} from "../approvals/find-checkout"
import { completionRunning } from "../approvals/cart-completion"
import { clientsOf } from "../settlement/provider-clients"
import { LenderError } from "../lender/errors"
import { awaitOrder, placeOrder, type PlaceOrderInput, type PlaceOrderResult } from "./place-order"

/** Whether a contract's virtual card was retrieved, and when (ISO time). */
export type CardRetrieval = { retrieved: true; at: string } | { retrieved: false }

/** A PayBright registration in force: a lender result names none, so it is checked against each. */
export type Registration = { providerId: string; options: PayBrightOptions }

/**
 * Everything the checkout decision (decideApplicationResult) reads or changes outside itself: the
 * registrations, the checkout a result names, the approvals, the order. Built from Medusa's
 * container by checkoutCollaborators; a unit test passes fakes of the same shape.
 */
export interface CheckoutCollaborators {
  logger: Pick<Logger, "info" | "warn" | "error">
  providersInForce(): Promise<Registration[]>
  /** The PayBright session a result names, its cart and order, if Medusa still has it. */
  findCheckout(sessionId: string): Promise<Checkout | undefined>
  /** The cart of a payment collection (a result whose session is gone, found through its return token). */
  cartOfCollection(paymentCollectionId: string): Promise<{ cartId?: string; amount?: unknown; countryCode?: string }>
  /** Whether an approval is recorded for the session that is approved or ordered (a decline arriving later leaves it be). */
  sessionHasApproval(sessionId: string): Promise<boolean>
  /** The cart's country, for the shopper's way back to the storefront. */
  countryOfCart(cartId: string): Promise<string | undefined>
  /**
   * Whether a completion of the cart paying with this collection is running (it holds the cart's
   * lock): until it ends, the order it made may still be undone by Medusa's compensation.
   */
  completionRunning(paymentCollectionId: string): Promise<boolean>
  /** The live payments of an order's payment collection, with their contracts; none if the order is gone. */
  orderPayments(order: { orderId: string; paymentCollectionId: string }): Promise<{ contract: string }[]>
  /**
   * Retrieves a virtual-card contract's card, which proves the approval, with the registration's
   * credentials; undefined when the registration is paid by in-store capture. Never throws.
   */
  confirmCard(registration: Registration, contract: string): Promise<CardRetrieval | undefined>
  /** A contract's approval row, read without a lock (a row is written once and never removed). */
  approvalOfContract(contract: string): Promise<ApprovalRecord | undefined>
  /** Records a verified approval apart from its placement (an orphan, or a cart another completion holds), or finds its row. */
  recordApproval(input: RecordApprovalInput): Promise<ApprovalRecord>
  orphanApproval(approvalId: string, reason: OrphanReason): Promise<ApprovalRecord>
  /** Decides an approval whose time is up under its cart's lock; undefined when the lock is held elsewhere. */
  orphanUnplacedApproval(input: {
    approval_id: string
    cart_id: string | null
    session_id: string
    reason: OrphanReason
    placement_error?: string | null
    lock_timeout: number
  }): Promise<{ approval: ApprovalRecord } | { notDecided: string }>
  markApprovalOrdered(approvalId: string, orderId: string): Promise<void>
  /** Hands a declined or pending result to its session (the provider seals nothing for those). */
  recordResultOnSession(sessionId: string, fields: Record<string, string>): Promise<void>
  /** Records the approval and completes its cart, under the cart's lock (see placeOrder). */
  placeOrder(input: PlaceOrderInput): Promise<PlaceOrderResult>
  /** The order another request is placing for this cart, waited for at most `timeoutMs`. */
  awaitOrder(input: { cartId: string; paymentCollectionId: string }, timeoutMs: number): Promise<string | undefined>
  now(): number
}

/**
 * The real collaborators: Medusa's modules and the plugin's workflows, from the request's or job's
 * container, and the clock (the machine's unless a sweep passes its own).
 */
export function checkoutCollaborators(scope: MedusaContainer, now = () => Date.now()): CheckoutCollaborators {
  const service = () => scope.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
  return {
    logger: scope.resolve<Logger>("logger"),
    providersInForce: () => providersInForce(scope),
    findCheckout: (sessionId) => findCheckout(scope, sessionId),
    cartOfCollection: (paymentCollectionId) => cartOfCollection(scope, paymentCollectionId),
    countryOfCart: (cartId) => countryOfCart(scope, cartId),
    sessionHasApproval: async (sessionId) => !!(await service().approvalOfSession(sessionId)).open,
    completionRunning: (paymentCollectionId) => completionRunning(scope, paymentCollectionId),
    orderPayments: (order) => paymentsOfOrder(scope, order),
    confirmCard: (registration, contract) => confirmCard(scope, registration, contract),
    approvalOfContract: async (contract) =>
      ((await service().listPayBrightApprovals({ contract })) as ApprovalRecord[])[0],
    recordApproval: async (input) => (await recordApprovalWorkflow(scope).run({ input })).result.approval,
    orphanApproval: async (approvalId, reason) =>
      (await orphanApprovalWorkflow(scope).run({ input: { approval_id: approvalId, reason } })).result,
    orphanUnplacedApproval: async (input) => {
      const { result, errors } = await orphanUnplacedApprovalWorkflow(scope).run({ input, throwOnError: false })
      return result ? { approval: result as ApprovalRecord } : { notDecided: errors[0]?.error?.message ?? "no reason" }
    },
    markApprovalOrdered: async (approvalId, orderId) => {
      await markApprovalOrderedWorkflow(scope).run({ input: { approval_id: approvalId, order_id: orderId } })
    },
    recordResultOnSession: async (sessionId, fields) => {
      await updatePayBrightSessionWorkflow(scope).run({
        input: { session_id: sessionId, data: { lender_result: fields } },
      })
    },
    placeOrder: (input) => placeOrder(scope, input),
    awaitOrder: (input, timeoutMs) => awaitOrder(scope, input, timeoutMs),
    now,
  }
}

async function confirmCard(
  scope: MedusaContainer,
  registration: Registration,
  contract: string
): Promise<CardRetrieval | undefined> {
  // Everything inside the try: the caller may not wait for the answer, so it must never reject.
  try {
    const { settlement } = clientsOf(registration)
    if (!settlement.confirm) return undefined
    await settlement.confirm(contract)
    return { retrieved: true, at: new Date().toISOString() }
  } catch (error) {
    // Not issued yet, or the lender did not answer: the approval waits for its card (see decideResult).
    const why = error instanceof LenderError ? `${error.code}${error.status ? ` ${error.status}` : ""}` : "unexpected"
    scope
      .resolve<Logger>("logger")
      .warn(`PayBright: the virtual card of contract ${contract} could not be retrieved yet (${why})`)
    return { retrieved: false }
  }
}
