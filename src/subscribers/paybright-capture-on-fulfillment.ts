import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { captureFulfillment } from "../capture/capture-fulfillment"

type FulfillmentEvent = { id?: string; fulfillment_id?: string; order_id?: string }

/**
 * The merchant is paid when the order ships: on `shipment.created` (or `order.fulfillment_created`
 * for providers with captureOn "fulfillment") the plugin captures what that parcel is worth.
 * Medusa never captures on shipment by itself.
 */
export default async function captureOnFulfillment({ event, container }: SubscriberArgs<FulfillmentEvent>) {
  const trigger = event.name === "shipment.created" ? "shipment" : "fulfillment"
  const fulfillmentId = trigger === "shipment" ? event.data.id : event.data.fulfillment_id
  if (!fulfillmentId) {
    return
  }
  try {
    await captureFulfillment(container, trigger, fulfillmentId)
  } catch (error) {
    // The outcome is recorded per fulfillment; this is only for what could not even be recorded.
    container
      .resolve<Logger>("logger")
      .error(`PayBright: capture at ${trigger} of fulfillment ${fulfillmentId} failed: ${(error as Error).message}`)
  }
}

export const config: SubscriberConfig = {
  event: ["shipment.created", "order.fulfillment_created"],
}
