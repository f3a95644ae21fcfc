import { capturePaymentWorkflow, getOrderDetailWorkflow } from "@medusajs/core-flows"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { registeredProviderOptions } from "../checkout/provider-settings"
import { PAYBRIGHT_MODULE } from "../modules/paybright"
import type PayBrightModuleService from "../modules/paybright/service"
import { captureAmountFor } from "./fulfillment-value"
import { paymentLockKey } from "./payment-lock"

export type CaptureTrigger = "shipment" | "fulfillment"

export type CaptureOutcome =
  | { status: "captured"; amount: string; recordId: string }
  | { status: "failed"; amount: string; recordId: string; message: string }
  | { status: "skipped"; reason: string }

/**
 * Captures what a fulfillment is worth on the order's PayBright payment, once: under a lock on
 * the payment (the locking module, so it holds across processes with the Redis provider), with a
 * record keyed by the trigger, so a redelivered or concurrent event finds the work done. A failure
 * does not undo the shipment: it is recorded with the lender's message and can be retried.
 */
export async function captureFulfillment(
  container: MedusaContainer,
  trigger: CaptureTrigger,
  fulfillmentId: string
): Promise<CaptureOutcome> {
  const target = await captureTarget(container, fulfillmentId)
  if (!target.found) {
    return { status: "skipped", reason: target.reason }
  }
  const options = await registeredProviderOptions(container, target.payment.provider_id)
  if (!options || options.captureOn !== trigger) {
    return { status: "skipped", reason: `this PayBright provider captures on ${options?.captureOn ?? "nothing"}` }
  }
  if (options.captureMode === "virtual_card" && options.cardProcessor?.type === "manual") {
    return { status: "skipped", reason: "the manual card processor is charged by a person, then captured in the admin" }
  }
  const locking = container.resolve(Modules.LOCKING)
  return locking.execute(paymentLockKey(target.payment.id), () => captureLocked(container, trigger, fulfillmentId), {
    timeout: 60,
  })
}

/** Runs a failed capture again, under the same lock and with the same record. */
export async function retryCapture(container: MedusaContainer, recordId: string): Promise<CaptureOutcome> {
  const records = container.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
  const record = await records.retrievePayBrightCapture(recordId)
  if (record.status === "captured") {
    return { status: "captured", amount: MathBN.convert(record.amount as never).toFixed(2), recordId }
  }
  const target = await captureTarget(container, record.fulfillment_id)
  if (!target.found) {
    return { status: "skipped", reason: target.reason }
  }
  const locking = container.resolve(Modules.LOCKING)
  return locking.execute(
    paymentLockKey(target.payment.id),
    () => captureLocked(container, record.trigger, record.fulfillment_id),
    { timeout: 60 }
  )
}

async function captureLocked(
  container: MedusaContainer,
  trigger: CaptureTrigger,
  fulfillmentId: string
): Promise<CaptureOutcome> {
  const records = container.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const idempotencyKey = `${trigger}:${fulfillmentId}`
  const [existing] = await records.listPayBrightCaptures({ idempotency_key: idempotencyKey })
  if (existing?.status === "captured") {
    return { status: "captured", amount: MathBN.convert(existing.amount as never).toFixed(2), recordId: existing.id }
  }
  // Read again under the lock: another capture may have landed while this one waited.
  const target = await captureTarget(container, fulfillmentId)
  if (!target.found) {
    return { status: "skipped", reason: target.reason }
  }
  const { order, payment, fulfillment } = target
  const amount = captureAmountFor(order, fulfillment, { authorized: payment.amount, captured: payment.captured })
  if (MathBN.lte(amount, 0)) {
    return { status: "skipped", reason: "nothing is left to capture" }
  }
  // A decimal string: Medusa stores it exactly (the DTO's type says number).
  const fields = { amount: amount as unknown as number, currency_code: payment.currency_code, last_error: null }
  const record = existing
    ? await records.updatePayBrightCaptures({
        id: existing.id,
        ...fields,
        status: "pending",
        attempts: existing.attempts + 1,
      })
    : await records.createPayBrightCaptures({
        idempotency_key: idempotencyKey,
        payment_id: payment.id,
        order_id: order.id,
        fulfillment_id: fulfillmentId,
        trigger,
        ...fields,
        status: "pending",
        attempts: 1,
      })
  const { errors } = await capturePaymentWorkflow(container).run({
    input: { payment_id: payment.id, amount: amount as unknown as number },
    throwOnError: false,
  })
  if (errors?.length) {
    const message = (errors[0].error as Error)?.message ?? "the capture failed"
    await records.updatePayBrightCaptures({ id: record.id, status: "failed", last_error: message })
    logger.error(
      `PayBright: capture of ${amount} ${payment.currency_code.toUpperCase()} at ${trigger} of order #${order.display_id} failed: ${message}`
    )
    return { status: "failed", amount, recordId: record.id, message }
  }
  await records.updatePayBrightCaptures({ id: record.id, status: "captured", last_error: null })
  logger.info(
    `PayBright: captured ${amount} ${payment.currency_code.toUpperCase()} at ${trigger} of order #${order.display_id}`
  )
  return { status: "captured", amount, recordId: record.id }
}

/** The order, its PayBright payment and the fulfillment, as the capture needs them. */
async function captureTarget(container: MedusaContainer, fulfillmentId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({
    entity: "order_fulfillment",
    fields: ["order_id"],
    filters: { fulfillment_id: fulfillmentId },
  })
  const orderId: string | undefined = links[0]?.order_id
  if (!orderId) {
    return { found: false as const, reason: `fulfillment ${fulfillmentId} belongs to no order` }
  }
  // Line and shipping totals (taxes and discounts included) are computed by the order workflow.
  const { result: order } = (await getOrderDetailWorkflow(container).run({
    input: {
      order_id: orderId,
      fields: [
        "id",
        "display_id",
        "total",
        "items.*",
        "items.total",
        "shipping_methods.*",
        "shipping_methods.total",
        "fulfillments.*",
        "fulfillments.items.*",
      ],
    },
  })) as { result: any }
  const { data: collections } = await query.graph({
    entity: "order_payment_collection",
    fields: [
      "payment_collection.payments.id",
      "payment_collection.payments.provider_id",
      "payment_collection.payments.amount",
      "payment_collection.payments.currency_code",
      "payment_collection.payments.canceled_at",
      "payment_collection.payments.captures.amount",
    ],
    filters: { order_id: orderId },
  })
  const payment = collections
    .flatMap((link: any) => link.payment_collection?.payments ?? [])
    .find((candidate: any) => candidate.provider_id.startsWith("pp_paybright_") && !candidate.canceled_at)
  if (!order || !payment) {
    return { found: false as const, reason: "the order is not paid with PayBright" }
  }
  const live = (order.fulfillments ?? []).filter((candidate: any) => !candidate.canceled_at)
  const fulfillment = live.find((candidate: any) => candidate.id === fulfillmentId)
  if (!fulfillment) {
    return { found: false as const, reason: `fulfillment ${fulfillmentId} is cancelled` }
  }
  const fulfilledQuantities: Record<string, ReturnType<typeof MathBN.convert>> = {}
  for (const { items } of live) {
    for (const item of items ?? []) {
      fulfilledQuantities[item.line_item_id] = MathBN.add(fulfilledQuantities[item.line_item_id] ?? 0, item.quantity)
    }
  }
  const shippingTotal = (order.shipping_methods ?? []).reduce(
    (sum: any, method: any) => MathBN.add(sum, method.total ?? 0),
    MathBN.convert(0)
  )
  const captured = (payment.captures ?? []).reduce(
    (sum: any, capture: any) => MathBN.add(sum, capture.amount),
    MathBN.convert(0)
  )
  return {
    found: true as const,
    order: {
      id: order.id as string,
      display_id: order.display_id as number,
      items: order.items,
      shippingTotal,
      fulfilledQuantities,
    },
    payment: {
      id: payment.id as string,
      provider_id: payment.provider_id as string,
      amount: payment.amount,
      currency_code: payment.currency_code as string,
      captured,
    },
    fulfillment: { items: fulfillment.items as { line_item_id: string; quantity: number }[] },
  }
}
