import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { voidCancelledOrderContractWorkflow } from "../workflows/void-cancelled-order-contract"

/**
 * Once Medusa has cancelled an order: a PayBright contract no live payment held (an order change
 * had cancelled it before the carry) is voided, so the shopper carries no loan on a cancelled order.
 */
export default async function voidCancelledOrder({ event, container }: SubscriberArgs<{ id?: string }>) {
  const orderId = event.data.id
  if (!orderId) return
  const { result, errors } = await voidCancelledOrderContractWorkflow(container).run({
    input: { order_id: orderId },
    throwOnError: false,
  })
  const logger = container.resolve<Logger>("logger")
  if (errors.length) {
    logger.error(
      `PayBright: the contract of cancelled order ${orderId} could not be voided: ${errors[0].error?.message ?? errors[0].error}`
    )
  } else if (result.voided) {
    logger.info(`PayBright: the contract of cancelled order ${orderId}: void ${result.voided.outcome}`)
  }
}

export const config: SubscriberConfig = { event: "order.canceled" }
