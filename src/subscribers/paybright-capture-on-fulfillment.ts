import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { capturePaymentOnceWorkflow } from "../workflows/capture/workflows/capture-payment-once"
import { recordUnstartedCaptureWorkflow } from "../workflows/capture/workflows/record-unstarted-capture"

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
