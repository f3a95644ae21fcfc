import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { pluginRecords } from "../modules/paybright/plugin-records"
import { paymentsOfOrder } from "./find-checkout"

/**
 * Marks an approval ordered once the cart's completion answered its order, when that order's
 * payment is this contract: a cart completed earlier (by another contract, or another way) answers
 * the order it has, which this approval does not pay. Never throws: it runs after Medusa placed
 * the order, and a failure here must not undo that order; an approval left unmarked is marked by
 * its next delivery or by the sweep.
 */
export async function markPlacedApproval(
  scope: MedusaContainer,
  placed: { approval_id: string; contract: string; order_id: string; payment_collection_id: string }
): Promise<boolean> {
  try {
    const payments = await paymentsOfOrder(scope, {
      orderId: placed.order_id,
      paymentCollectionId: placed.payment_collection_id,
    })
    if (!payments.some((payment) => payment.contract === placed.contract)) return false
    await pluginRecords(scope).markApprovalOrdered(placed.approval_id, placed.order_id)
    return true
  } catch (error) {
    scope
      .resolve<Logger>("logger")
      .warn(
        `PayBright: order ${placed.order_id} is placed, but contract ${placed.contract} could not be marked ordered yet (${(error as Error).message}); its next delivery does`
      )
    return false
  }
}
