import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { settingsInForce } from "../../../settings/provider-registry"
import { paymentLockKey } from "../../../locks/payment-lock"
import { captureMomentOf, type CaptureRequestInput, type LocatedCapture } from "../../../capture/types"
import { pickPayBrightPayment } from "../../../capture/capture-target"
import { findRecord } from "../../../money/record-queries"
import { contractOfOrder } from "../../../approvals/find-checkout"

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
    const { data: links } = await query.graph({
      entity: "order_fulfillment",
      fields: ["order_id"],
      filters: { fulfillment_id: input.fulfillment_id },
    })
    const orderId: string | undefined = links[0]?.order_id
    const { data: collections } = orderId
      ? await query.graph({
          entity: "order_payment_collection",
          fields: [
            "payment_collection.payments.id",
            "payment_collection.payments.provider_id",
            "payment_collection.payments.data",
            "payment_collection.payments.canceled_at",
            "payment_collection.payments.captures.id",
          ],
          filters: { order_id: orderId },
        })
      : { data: [] as any[] }
    const payment: any = pickPayBrightPayment(
      collections.flatMap((link: any) => link.payment_collection?.payments ?? []),
      orderId ? await contractOfOrder(container, orderId) : undefined
    )
    const skip = (reason: string) => new StepResponse<Located>({ lock_key: undefined, skip_reason: reason })
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
