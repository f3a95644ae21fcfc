import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { capturePaymentOnceWorkflow } from "../workflows/capture-payment-once"
import { recordUnstartedCaptureWorkflow } from "../workflows/record-unstarted-capture"
import { carryContractWorkflow } from "../workflows/carry-contract"
import { orderIdOfFulfillment } from "../lib/medusa-links"

type FulfillmentEvent = { id?: string; fulfillment_id?: string; order_id?: string }

/**
 * The merchant is paid when the order ships: on `shipment.created` (or `order.fulfillment_created`
 * for providers with captureOn "fulfillment") the plugin captures what that parcel is worth.
 * Medusa never captures on shipment by itself. A capture that cannot even start still leaves a
 * record the merchant sees and can retry.
 */
export default async function captureOnFulfillment({ event, container }: SubscriberArgs<FulfillmentEvent>) {
  const trigger = event.name === "shipment.created" ? "shipment" : "fulfillment"
  const fulfillmentId = trigger === "shipment" ? event.data.id : event.data.fulfillment_id
  if (!fulfillmentId) {
    return
  }
  // A parcel shipped right after an order change: its contract is carried into the order's new
  // payment first (under the carry's lock, so a carry already running on Medusa's event is waited
  // for), rather than the capture refused on the payment Medusa has just cancelled.
  const orderId = await orderIdOfFulfillment(container.resolve(ContainerRegistrationKeys.QUERY), fulfillmentId)
  if (orderId) await carryContractWorkflow(container).run({ input: { order_id: orderId }, throwOnError: false })
  try {
    await capturePaymentOnceWorkflow(container).run({ input: { trigger, fulfillment_id: fulfillmentId } })
  } catch (error) {
    const reason = (error as Error)?.message ?? String(error)
    container
      .resolve<Logger>("logger")
      .error(`PayBright: capture at ${trigger} of fulfillment ${fulfillmentId} could not start: ${reason}`)
    await recordUnstartedCaptureWorkflow(container).run({
      input: { trigger, fulfillment_id: fulfillmentId, error: reason },
    })
  }
}

export const config: SubscriberConfig = {
  event: ["shipment.created", "order.fulfillment_created"],
}
