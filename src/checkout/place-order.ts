import { MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { CART_LOCK_STEP, placeApprovalWorkflow, PREPARE_COMPLETION_STEP } from "../workflows/approvals"
import { livePayments, orderOfCart } from "../approvals/find-checkout"
import { completionRunning } from "../approvals/cart-completion"
import type { ApprovalRecord, RecordApprovalInput } from "../approvals/approval-record"

export type PlaceOrderResult =
  /**
   * The cart has its order. `approval`: the row as recorded, `marked` once it says ordered (when
   * the order is paid by it); both absent when the order was found after a failed completion.
   */
  | { placed: true; orderId: string; approval?: ApprovalRecord; marked?: boolean }
  /**
   * Another request holds the cart's lock (a completion is running), or an order it made without
   * its payment may still be being placed: try again later.
   */
  | { placed: false; conflict: true }
  /**
   * The completion failed. `cardPending`: the provider found no virtual card yet (the session is
   * `requires_more`); `permanent`: Medusa refused the cart itself (stock, validation), which
   * trying again will not change; `refusal`, for two such refusals, why: the cart's total is no
   * longer the approved amount, or Medusa cancelled the payment while placing the order.
   */
  | {
      placed: false
      conflict: false
      cardPending: boolean
      permanent: boolean
      refusal?: "cart_changed" | "payment_cancelled"
      message: string
    }

/** Medusa's error types for a cart that cannot become an order as it stands. */
const PERMANENT = new Set<string>([
  MedusaError.Types.INVALID_DATA,
  MedusaError.Types.NOT_ALLOWED,
  MedusaError.Types.NOT_FOUND,
  MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
])

export type PlaceOrderInput = {
  cartId: string
  paymentCollectionId: string
  approval: RecordApprovalInput
  lockTimeoutSeconds: number
}

/**
 * Records the approval and completes the cart the way the Store API does, under the cart's lock
 * (placeApprovalWorkflow). Completion is idempotent: a completed cart answers its order. A lock
 * held elsewhere is recognised by the step that failed (the lock step), not by the words of the
 * error; the approval is then not recorded yet, and the caller records it.
 */
export async function placeOrder(scope: MedusaContainer, input: PlaceOrderInput): Promise<PlaceOrderResult> {
  const { errors, result } = await placeApprovalWorkflow(scope).run({
    input: {
      cart_id: input.cartId,
      payment_collection_id: input.paymentCollectionId,
      lock_timeout: input.lockTimeoutSeconds,
      approval: input.approval,
    },
    throwOnError: false,
  })
  const orderId = result?.order?.id
  if (orderId && !errors?.length) {
    return { placed: true, orderId, approval: result.approval as ApprovalRecord, marked: result.marked }
  }
  // Another request holds the cart: its order may be linked already while its payment is still
  // being authorized, so it is waited for (awaitOrder), not taken as placed.
  const failure = errors?.[0]
  const error = failure?.error as { type?: string; message?: string } | undefined
  const mayStillBePlaced = failure?.action === PREPARE_COMPLETION_STEP && error?.type === MedusaError.Types.CONFLICT
  if (failure?.action === CART_LOCK_STEP || mayStillBePlaced) {
    return { placed: false, conflict: true }
  }
  const placedMeanwhile = await orderOfCart(scope, input.cartId)
  if (placedMeanwhile) {
    return { placed: true, orderId: placedMeanwhile }
  }
  const [session] = await scope
    .resolve(Modules.PAYMENT)
    .listPaymentSessions({ id: input.approval.session_id }, { select: ["id", "status", "data"] })
  const refusal =
    failure?.action === PREPARE_COMPLETION_STEP && error?.type === MedusaError.Types.NOT_ALLOWED
      ? ("payment_cancelled" as const)
      : // The provider's authorizePayment found the amount changed since the approval.
        session?.status === "error" && session.data?.paybright_status === "expired"
        ? ("cart_changed" as const)
        : undefined
  return {
    placed: false,
    conflict: false,
    cardPending: session?.status === "requires_more",
    permanent: !!refusal || (MedusaError.isMedusaError(error) && PERMANENT.has(error.type ?? "")),
    refusal,
    message: error?.message ?? "the cart could not be completed",
  }
}

/**
 * Waits for an order that another request is placing, for at most `timeoutMs`: the cart's order
 * and its payment (Medusa links the order before it authorizes the payment), once that request has
 * let go of the cart (until then, a failure of its last steps may still undo the order).
 */
export async function awaitOrder(
  scope: MedusaContainer,
  input: { cartId: string; paymentCollectionId: string },
  timeoutMs: number
): Promise<string | undefined> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    const orderId = await orderOfCart(scope, input.cartId)
    if (
      orderId &&
      (await livePayments(scope, { payment_collection_id: input.paymentCollectionId })).length > 0 &&
      !(await completionRunning(scope, input.paymentCollectionId))
    ) {
      return orderId
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return undefined
}
