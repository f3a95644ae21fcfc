import { completeCartWorkflowId } from "@medusajs/core-flows"
import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { placeOf } from "./find-checkout"

export type PlaceOrderResult =
  | { placed: true; orderId: string }
  | { placed: false; inProgress: true }
  | { placed: false; inProgress: false; reason: string }

/**
 * Completes the cart the way the Store API does. Completion is locked per cart and idempotent:
 * a completed cart answers its order, and one being completed elsewhere is "in progress".
 *
 * The plugin's callback and return race each other for one cart, so they first take a lock of
 * their own through `execute` (a PostgreSQL advisory lock with `locking-postgres`). Medusa's
 * cart-completion lock is taken without an owner, and `locking-postgres` (2.21) grants a free
 * ownerless key to two callers that insert it at the same instant: two orders for one cart.
 */
export async function placeOrder(scope: MedusaContainer, cartId: string): Promise<PlaceOrderResult> {
  const locking = scope.resolve(Modules.LOCKING)
  return locking.execute(`paybright:cart:${cartId}`, () => completeCart(scope, cartId), { timeout: 60 })
}

async function completeCart(scope: MedusaContainer, cartId: string): Promise<PlaceOrderResult> {
  const engine = scope.resolve(Modules.WORKFLOW_ENGINE)
  const { errors, result, transaction } = await engine.run(completeCartWorkflowId, {
    input: { id: cartId },
    throwOnError: false,
  })
  if (!transaction.hasFinished()) {
    return { placed: false, inProgress: true }
  }
  const orderId = (result as { id?: string } | undefined)?.id
  if (orderId && !errors?.length) {
    return { placed: true, orderId }
  }
  // A concurrent completion may have placed the order while this one failed on the lock.
  const { orderId: placedMeanwhile } = await placeOf(scope, cartId)
  if (placedMeanwhile) {
    return { placed: true, orderId: placedMeanwhile }
  }
  const message = (errors?.[0]?.error as { message?: string } | undefined)?.message ?? "the cart could not be completed"
  const conflict = /already being completed|lock/i.test(message)
  return conflict ? { placed: false, inProgress: true } : { placed: false, inProgress: false, reason: message }
}

/** Waits for an order that another request is placing, for at most `timeoutMs`. */
export async function awaitOrder(
  scope: MedusaContainer,
  cartId: string,
  timeoutMs: number
): Promise<string | undefined> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    const { orderId } = await placeOf(scope, cartId)
    if (orderId) {
      return orderId
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return undefined
}
