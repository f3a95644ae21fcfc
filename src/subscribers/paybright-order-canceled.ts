import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { registeredProviderOptions } from "../checkout/provider-settings"

/**
 * Cancelling an order cancels its uncaptured payment in Medusa, and refunds what was captured
 * (Medusa does both). The lender's in-store API has no void, so the order keeps a note telling the
 * merchant what is left to do at PayBright.
 */
export default async function noteCancelledContract({ event, container }: SubscriberArgs<{ id: string }>) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "metadata",
      "payment_collections.payments.provider_id",
      "payment_collections.payments.data",
      "payment_collections.payments.captures.id",
    ],
    filters: { id: event.data.id },
  })
  const order = data[0] as any
  const payment = (order?.payment_collections ?? [])
    .flatMap((collection: any) => collection.payments ?? [])
    .find((candidate: any) => candidate.provider_id?.startsWith("pp_paybright_"))
  if (!payment || payment.captures?.length) {
    return
  }
  const options = await registeredProviderOptions(container, payment.provider_id)
  const contract = payment.data?.gateway_reference
  const note =
    options?.captureMode === "virtual_card"
      ? `PayBright contract ${contract}: nothing was charged on its virtual card. Cancel the contract in the PayBright merchant portal so the shopper is not financed.`
      : `PayBright contract ${contract}: nothing was captured and PayBright's API offers no void. Cancel the contract in the PayBright merchant portal; otherwise the authorization lapses after 30 days.`
  await container
    .resolve(Modules.ORDER)
    .updateOrders(order.id, { metadata: { ...(order.metadata ?? {}), paybright_note: note } })
}

export const config: SubscriberConfig = { event: "order.canceled" }
