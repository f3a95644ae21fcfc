import { recordsWriter } from "../../lib/plugin-records"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { notStartedMessage } from "../../lib/merchant-messages"
import type { MoneyRecordRow } from "../../modules/paybright/money-record-types"
import { parcelCaptureKey, parcelCaptureKeys, type CaptureTrigger } from "../../lib/capture-types"
import { captureTarget } from "../../lib/capture-target"

export const recordUnstartedCaptureStepId = "paybright-record-unstarted-capture-step"

export type UnstartedCaptureInput = { trigger: CaptureTrigger; fulfillment_id: string; error: string }

/**
 * A parcel's capture that failed before its record existed (a lock wait, a database error) still
 * gets a record, refused with the reason, so the merchant sees it and can retry it. A parcel that
 * has a record already keeps it.
 */
export const recordUnstartedCaptureStep = createStep(
  recordUnstartedCaptureStepId,
  async (input: UnstartedCaptureInput, { container }) => {
    const records = recordsWriter(container)
    const [existing] = (await records.listPayBrightMoneyRecords({
      idempotency_key: parcelCaptureKeys(input.fulfillment_id),
    })) as unknown as MoneyRecordRow[]
    if (existing) {
      return new StepResponse(existing.id)
    }
    const target = await captureTarget(container, input.trigger, input.fulfillment_id)
    if (!target.found) {
      return new StepResponse(null)
    }
    const record = await records.prepareMoneyRecord(
      {
        kind: "capture",
        trigger: input.trigger,
        idempotency_key: parcelCaptureKey(input.fulfillment_id),
        payment_id: target.payment.id,
        order_id: target.order.id,
        fulfillment_id: input.fulfillment_id,
        contract: target.payment.contract,
        // What the lender would move (its cents), beside Medusa's exact amount, as every record keeps them.
        amount: target.lenderAmount,
        medusa_amount: target.amount,
        currency_code: target.payment.currency_code,
      },
      { state: "refused", message: notStartedMessage("capture", input.error) }
    )
    return new StepResponse(record.id)
  }
)
