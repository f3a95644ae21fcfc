import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { authorizePlacedCollectionsWorkflow } from "../workflows/authorize-placed-collections"

/**
 * Every placed order, however its cart was completed (the lender's callback, the shopper's return,
 * the Store API): a collection Medusa left reading as unpaid under a standing PayBright payment is
 * written authorized.
 */
export default async function authorizePlacedCollections({ event, container }: SubscriberArgs<{ id: string }>) {
  const { result, errors } = await authorizePlacedCollectionsWorkflow(container).run({
    input: { order_id: event.data.id },
    throwOnError: false,
  })
  const logger = container.resolve<Logger>("logger")
  if (errors.length) {
    logger.error(
      `PayBright: order ${event.data.id}'s payment collection still reads as unpaid, and could not be written authorized: ${errors[0].error?.message ?? errors[0].error}`
    )
  } else {
    for (const written of result) {
      logger.warn(
        `PayBright: order ${event.data.id}'s payment collection ${written.collection_id} read "${written.from}" under an authorized PayBright payment (Medusa lost that write); written "${written.status}", as Medusa would have`
      )
    }
  }
}

export const config: SubscriberConfig = { event: "order.placed" }
