import type { MedusaContainer } from "@medusajs/framework/types"
import { MathBN, MedusaError } from "@medusajs/framework/utils"
import { cancelledAuthorizationMessage } from "./merchant-messages"
import { MerchantError } from "./merchant-error"
import { money, said, type Sentence } from "./texts/said"
import { blockedMessage } from "./in-doubt"
import { exactText, lenderAmount } from "./lender-cents"
import { findRecord } from "./record-queries"
import { nothingLeftToCapture, openRefusals } from "./open-refusals"
import { medusaAmountOf, type MoneyRecordRow } from "../modules/paybright/money-record-types"
import type { NewMoneyRecord } from "../modules/paybright/records"
import { pluginRecords, recordsWriter } from "./plugin-records"
import { captureTarget } from "./capture-target"
import { type CaptureRequestInput, type LocatedCapture, parcelCaptureKey, parcelCaptureKeys } from "./capture-types"

export type PreparedCapture =
  | { record_id: string; payment_id: string; amount: string; proceed: true }
  | { record_id: string | null; proceed: false; reason: string }

/** What a capture would write, or why there is nothing to capture now. */
type PlannedCapture = { fields: NewMoneyRecord; refusal: Sentence | null } | { nothing: string }

/**
 * Under the payment's lock: the record of the capture about to be made, with its amount, written
 * before Medusa or the lender is asked. The capture is valued here; the module service then
 * decides and writes in one transaction (prepareCaptureRecord): a parcel already recorded is not
 * captured again, and a payment with a movement in doubt is not captured at all (the parcel's
 * record says why, so it can be retried once the doubt is resolved).
 */
export async function prepareCapture(
  container: MedusaContainer,
  input: CaptureRequestInput,
  located: LocatedCapture
): Promise<PreparedCapture> {
  if (located.skip_reason) {
    return { record_id: null, proceed: false, reason: located.skip_reason }
  }
  const records = recordsWriter(container)
  const planned =
    "retry_record_id" in input
      ? await retryPlan(container, await retriedRecord(container, input.retry_record_id))
      : await parcelPlan(container, input, located)
  // One capture per parcel, whatever moment started it (a registration's captureOn may change).
  const parcelKeys = "fulfillment_id" in input ? parcelCaptureKeys(input.fulfillment_id) : null
  const prepared = await records.prepareCaptureRecord(parcelKeys, "nothing" in planned ? null : planned, {
    blocked: (doubt) => blockedMessage(doubt),
  })
  if ("existing" in prepared) {
    return { record_id: prepared.existing.id, proceed: false, reason: "this parcel already has its capture" }
  }
  if ("blocked" in prepared) {
    throw new MerchantError(MedusaError.Types.NOT_ALLOWED, blockedMessage(prepared.blocked))
  }
  const { record } = prepared
  if ("nothing" in planned || !record) {
    return { record_id: null, proceed: false, reason: "nothing" in planned ? planned.nothing : "" }
  }
  if (record.state === "refused") {
    return { record_id: record.id, proceed: false, reason: record.message ?? "" }
  }
  return {
    record_id: record.id,
    payment_id: planned.fields.payment_id!,
    amount: planned.fields.medusa_amount,
    proceed: true,
  }
}

/** The refused capture a person retries, once it is certain it may be retried. */
async function retriedRecord(container: MedusaContainer, id: string): Promise<MoneyRecordRow> {
  const retryOf = await findRecord(container, id)
  if (retryOf.kind !== "capture") {
    // A refused refund or void is retried by the merchant's own action, never captured here.
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `This record is a ${retryOf.kind}, not a capture; only a refused capture is retried here.`
    )
  }
  if (retryOf.state !== "refused") {
    throw new MerchantError(
      MedusaError.Types.NOT_ALLOWED,
      retryOf.state === "in_doubt"
        ? blockedMessage(retryOf)
        : said(retryOf.state === "done" ? "retry_capture_already_made" : "retry_capture_running")
    )
  }
  const newest = await newestAttempt(container, retryOf)
  if (newest.id !== retryOf.id) {
    // A page drawn before a retry since: the merchant is told where the newest attempt stands.
    throw new MerchantError(
      MedusaError.Types.NOT_ALLOWED,
      newest.state === "done"
        ? said("retry_capture_retried_done", {
            amount: money(lenderAmount(newest.amount as never), newest.currency_code),
          })
        : newest.state === "in_doubt"
          ? blockedMessage(newest)
          : said(newest.state === "refused" ? "retry_capture_already_retried" : "retry_capture_running")
    )
  }
  if (retryOf.payment_id && !(await stillOpen(container, retryOf))) {
    // Made good since (another tab's capture, Medusa's own Capture): Medusa would make no Capture
    // of a payment captured in full, and a record written for the retry would stay pending.
    throw new MerchantError(MedusaError.Types.NOT_ALLOWED, said("retry_capture_made_good"))
  }
  return retryOf
}

/** The last of a record's retries, each a retry of the one before; the record itself when never retried. */
async function newestAttempt(container: MedusaContainer, record: MoneyRecordRow): Promise<MoneyRecordRow> {
  let newest = record
  for (;;) {
    const [newer] = (await pluginRecords(container).listPayBrightMoneyRecords({
      retry_of: newest.id,
    })) as unknown as MoneyRecordRow[]
    if (!newer) return newest
    newest = newer
  }
}

/** Whether a refused capture is still open by the rule the order's panel offers its retry by. */
async function stillOpen(container: MedusaContainer, refused: MoneyRecordRow): Promise<boolean> {
  // The contract's captures: one carried into another payment after an order change goes on there.
  const captures = (await pluginRecords(container).listPayBrightMoneyRecords(
    refused.contract
      ? { contract: refused.contract, kind: "capture" }
      : { payment_id: refused.payment_id, kind: "capture" }
  )) as unknown as MoneyRecordRow[]
  const fullyCaptured = await nothingLeftToCapture(container, [refused.payment_id!])
  return openRefusals(captures, (paymentId) => fullyCaptured.has(paymentId)).some((row) => row.id === refused.id)
}

/** A parcel's capture: what the parcel is worth now, on the order's PayBright payment. */
async function parcelPlan(
  container: MedusaContainer,
  input: { trigger: "shipment" | "fulfillment"; fulfillment_id: string },
  located: LocatedCapture
): Promise<PlannedCapture> {
  return targetPlan(container, {
    trigger: input.trigger,
    fulfillmentId: input.fulfillment_id,
    orderId: located.order_id,
    idempotencyKey: parcelCaptureKey(input.fulfillment_id),
  })
}

/**
 * A retry: a parcel's capture is valued again (what was captured since counts), any other
 * capture is made again at the amount it was refused for.
 */
async function retryPlan(container: MedusaContainer, retryOf: MoneyRecordRow): Promise<PlannedCapture> {
  const retry = { trigger: "retry" as const, retry_of: retryOf.id }
  if (retryOf.fulfillment_id) {
    return targetPlan(
      container,
      {
        trigger: retryOf.trigger === "fulfillment" ? "fulfillment" : "shipment",
        fulfillmentId: retryOf.fulfillment_id,
        idempotencyKey: null,
      },
      retry
    )
  }
  return amountPlan({
    ...retry,
    kind: "capture",
    idempotency_key: null,
    payment_id: retryOf.payment_id,
    order_id: retryOf.order_id,
    fulfillment_id: null,
    contract: retryOf.contract,
    amount: lenderAmount(retryOf.amount as never),
    medusa_amount: exactText(medusaAmountOf(retryOf)),
    currency_code: retryOf.currency_code,
  })
}

async function targetPlan(
  container: MedusaContainer,
  parcel: {
    trigger: "shipment" | "fulfillment"
    fulfillmentId: string
    orderId?: string
    idempotencyKey: string | null
  },
  retry?: { trigger: "retry"; retry_of: string }
): Promise<PlannedCapture> {
  const target = await captureTarget(container, parcel.trigger, parcel.fulfillmentId, parcel.orderId)
  if (!target.found) {
    return { nothing: target.reason }
  }
  const { payment } = target
  return amountPlan(
    {
      kind: "capture",
      trigger: retry?.trigger ?? parcel.trigger,
      retry_of: retry?.retry_of ?? null,
      idempotency_key: parcel.idempotencyKey,
      payment_id: payment.id,
      order_id: target.order.id,
      fulfillment_id: parcel.fulfillmentId,
      contract: payment.contract,
      // Provisional until the provider claims the record with the rule's answer for Medusa's Capture.
      amount: target.lenderAmount,
      medusa_amount: target.amount,
      currency_code: payment.currency_code,
    },
    payment.canceled
  )
}

/** Nothing when nothing remains; refused at once where Medusa cancelled what remained authorized. */
function amountPlan(fields: NewMoneyRecord, cancelledByEdit = false): PlannedCapture {
  if (MathBN.lte(fields.medusa_amount, 0)) {
    return { nothing: "nothing is left to capture" }
  }
  const refusal = cancelledByEdit
    ? cancelledAuthorizationMessage(fields.amount, fields.currency_code, fields.contract ?? "?")
    : null
  return { fields, refusal }
}
