import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { carryContractWorkflow } from "../workflows/carry-contract"

/**
 * The order changes after which Medusa may have replaced a PayBright order's authorized
 * collection with one for what the order still owes: the contract is carried into it.
 */
export default async function carryContract({ event, container }: SubscriberArgs<{ order_id?: string }>) {
  const orderId = event.data.order_id
  if (!orderId) return
  const { result, errors } = await carryContractWorkflow(container).run({
    input: { order_id: orderId },
    throwOnError: false,
  })
  const logger = container.resolve<Logger>("logger")
  if (errors.length) {
    logger.error(
      `PayBright: the contract of order ${orderId} could not be carried into its new payment collection after ${event.name}: ${errors[0].error?.message ?? errors[0].error}`
    )
  } else if (result.plan.carry) {
    logger.info(`PayBright: order ${orderId}'s contract carried into payment ${result.payment_id} after ${event.name}`)
  }
}

export const config: SubscriberConfig = {
  event: [
    "order.return_requested",
    "order.return_received",
    "order.exchange_created",
    "order.claim_created",
    "order-edit.confirmed",
  ],
}
