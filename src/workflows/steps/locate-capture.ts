import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { settingsInForce } from "../../lib/provider-registry"
import { paymentLockKey } from "../../lib/payment-lock"
import { captureMomentOf, type CaptureRequestInput, type LocatedCapture } from "../../lib/capture-types"
import { pickPayBrightPayment } from "../../lib/capture-target"
import { findRecord } from "../../lib/record-queries"
import { contractOfOrder } from "../../lib/find-checkout"
import { collectionsOfOrders, orderIdOfFulfillment } from "../../lib/medusa-links"

type Located = LocatedCapture & { lock_key: string | undefined }

export const locateCaptureStepId = "paybright-locate-capture-step"

export type { CaptureRequestInput as LocateCaptureInput }

/**
 * Which payment a capture concerns, so that its lock can be taken, and the parcel's order; nothing
 * is written. Answers no lock key when the plugin does not capture this one by itself (the reason
 * says why).
 */
export const locateCaptureStep = createStep(
  locateCaptureStepId,
  async (input: CaptureRequestInput, { container }): Promise<StepResponse<Located>> => {
    if ("retry_record_id" in input) {
      const record = await findRecord(container, input.retry_record_id)
      return new StepResponse<Located>({ lock_key: paymentLockKey(record.payment_id!), skip_reason: null })
    }
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const skip = (reason: string) => new StepResponse<Located>({ lock_key: undefined, skip_reason: reason })
    const orderId = await orderIdOfFulfillment(query, input.fulfillment_id)
    if (!orderId) {
      return skip(`fulfillment ${input.fulfillment_id} belongs to no order`)
    }
    const collections = await collectionsOfOrders<{ id: string; payments?: any[] }>(
      query,
      [orderId],
      ["payments.id", "payments.provider_id", "payments.data", "payments.canceled_at", "payments.captures.id"]
    )
    const payment: any = pickPayBrightPayment(
      (collections.get(orderId) ?? []).flatMap((collection) => collection.payments ?? []),
      await contractOfOrder(container, orderId)
    )
    if (!payment) {
      return skip("the order is not paid with PayBright")
    }
    const options = (await settingsInForce(container, payment.provider_id))?.options
    if (options?.captureMode === "virtual_card" && options.cardProcessor?.type === "manual") {
      return skip("the manual card processor is charged by a person, then captured in the admin")
    }
    const moment = options && captureMomentOf(options, payment.data)
    if (moment !== input.trigger) {
      return skip(`this PayBright payment is captured on ${moment ?? "nothing by itself"}`)
    }
    return new StepResponse<Located>({ lock_key: paymentLockKey(payment.id), skip_reason: null, order_id: orderId })
  }
)
