import type { MedusaContainer } from "@medusajs/framework/types"
import { MathBN, MedusaError } from "@medusajs/framework/utils"
import { cancelledAuthorizationMessage } from "../messages/merchant-messages"
import { blockedMessage, doubtOf } from "../money/in-doubt"
import { exactText, lenderAmount } from "../money/lender-cents"
import { findRecord } from "../money/record-queries"
import { medusaAmountOf, type MoneyRecordRow } from "../modules/paybright/money-record-types"
import { pluginRecords } from "../modules/paybright/plugin-records"
import { captureTarget } from "./capture-target"
import { type CaptureRequestInput, parcelCaptureKey, parcelCaptureKeys } from "./types"

export type PreparedCapture =
  | { record_id: string; payment_id: string; amount: string; proceed: true }
  | { record_id: string | null; proceed: false; reason: string }

/**
 * Under the payment's lock: the record of the capture about to be made, with its amount, written
 * before Medusa or the lender is asked. A parcel already recorded is not captured again; a
 * payment with a movement in doubt is not captured at all (the parcel's record says why, so it
 * can be retried once the doubt is resolved).
 */
export async function prepareCapture(
  container: MedusaContainer,
  input: CaptureRequestInput,
  skipReason: string | null
): Promise<PreparedCapture> {
  if (skipReason) {
    return { record_id: null, proceed: false, reason: skipReason }
  }
  const records = pluginRecords(container)
  const retryOf = "retry_record_id" in input ? await findRecord(container, input.retry_record_id) : undefined
  if (retryOf && retryOf.kind !== "capture") {
    // A refused refund or release is retried by the merchant's own action, never captured here.
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `This record is a ${retryOf.kind}, not a capture; only a refused capture is retried here.`
    )
  }
  if (retryOf && retryOf.state !== "refused") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      retryOf.state === "in_doubt"
        ? blockedMessage(retryOf)
        : `This capture is ${retryOf.state === "done" ? "already made" : "still running"}; there is nothing to retry.`
    )
  }
  if (retryOf) {
    const [newer] = (await records.listPayBrightMoneyRecords({ retry_of: retryOf.id })) as unknown as MoneyRecordRow[]
    if (newer) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "This capture was already retried; retry the newest attempt instead."
      )
    }
  }
  const trigger = retryOf
    ? retryOf.trigger === "fulfillment"
      ? "fulfillment"
      : "shipment"
    : (input as { trigger: "shipment" | "fulfillment" }).trigger
  const fulfillmentId = retryOf ? retryOf.fulfillment_id : (input as { fulfillment_id: string }).fulfillment_id
  // One capture per parcel, whatever moment started it (a registration's captureOn may change).
  const idempotencyKey = retryOf ? null : parcelCaptureKey(fulfillmentId!)
  if (idempotencyKey) {
    const [existing] = (await records.listPayBrightMoneyRecords({
      idempotency_key: parcelCaptureKeys(fulfillmentId!),
    })) as unknown as MoneyRecordRow[]
    if (existing) {
      return {
        record_id: existing.id,
        proceed: false,
        reason: "this parcel already has its capture",
      }
    }
  }
  let amount: string
  let atLender: string
  let cancelledByEdit = false
  let paymentId: string
  let orderId: string | null = retryOf?.order_id ?? null
  let currency: string
  let contract: string | null = retryOf?.contract ?? null
  if (fulfillmentId) {
    const target = await captureTarget(container, trigger, fulfillmentId)
    if (!target.found) {
      return { record_id: null, proceed: false, reason: target.reason }
    }
    amount = target.amount
    atLender = target.lenderAmount
    cancelledByEdit = target.payment.canceled
    paymentId = target.payment.id
    orderId = target.order.id
    currency = target.payment.currency_code
    contract = target.payment.contract
  } else {
    amount = exactText(medusaAmountOf(retryOf!))
    atLender = lenderAmount(retryOf!.amount as never)
    paymentId = retryOf!.payment_id!
    currency = retryOf!.currency_code
  }
  if (MathBN.lte(amount, 0)) {
    return {
      record_id: null,
      proceed: false,
      reason: "nothing is left to capture",
    }
  }
  const doubt = await doubtOf(records, paymentId)
  const base = {
    kind: "capture" as const,
    trigger: retryOf ? ("retry" as const) : trigger,
    idempotency_key: idempotencyKey,
    payment_id: paymentId,
    order_id: orderId,
    fulfillment_id: fulfillmentId,
    contract,
    // Provisional until the provider claims the record with the rule's answer for Medusa's Capture.
    amount: atLender,
    medusa_amount: amount,
    currency_code: currency,
    retry_of: retryOf?.id ?? null,
  }
  if (cancelledByEdit) {
    const message = cancelledAuthorizationMessage(atLender, currency, contract ?? "?")
    const refused = await records.prepareMoneyRecord(base, { state: "refused", message })
    return { record_id: refused.id, proceed: false, reason: message }
  }
  if (doubt) {
    if (retryOf) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, blockedMessage(doubt))
    }
    const blocked = await records.prepareMoneyRecord(base, { state: "refused", message: blockedMessage(doubt) })
    return { record_id: blocked.id, proceed: false, reason: blockedMessage(doubt) }
  }
  const record = await records.prepareMoneyRecord(base, { state: "pending" })
  return { record_id: record.id, payment_id: paymentId, amount, proceed: true }
}
