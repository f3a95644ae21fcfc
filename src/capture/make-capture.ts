import { pluginRecords, recordsWriter } from "../modules/paybright/plugin-records"
import { capturePaymentWorkflow } from "@medusajs/core-flows"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { factOf, merchantMessage, notStartedMessage } from "../messages/merchant-messages"
import { english, said } from "../messages/said"
import { doubtOf } from "../money/in-doubt"
import { lenderAmount } from "../money/lender-cents"
import { medusaRowsOf } from "../money/record-queries"
import type { MoneyRecordRow } from "../modules/paybright/money-record-types"
import { viaOf } from "../settlement/movement-via"
import { prepareCapture } from "./prepare-capture"
import type { CaptureRequestInput, CaptureResult, LocatedCapture } from "./types"

/**
 * Under the payment's lock: the capture's record is prepared (src/capture/prepare-capture.ts),
 * then the capture made through Medusa's own capture workflow (which creates the Capture and calls
 * the provider, which concludes the record). When that workflow fails, the record says what
 * really happened: never reached the provider (refused, retryable), or the provider made it and
 * a later step failed, in which case Medusa's Capture is looked up before anything is called
 * failed.
 */
export async function makeCaptureOnce(
  container: MedusaContainer,
  input: CaptureRequestInput,
  located: LocatedCapture
): Promise<CaptureResult> {
  const prepared = await prepareCapture(container, input, located)
  if (!prepared.proceed) {
    if (!prepared.record_id) return { status: "skipped", reason: prepared.reason }
    return resultOf(await recordOf(container, prepared.record_id))
  }
  const { errors } = await capturePaymentWorkflow(container).run({
    input: { payment_id: prepared.payment_id, amount: prepared.amount as never },
    throwOnError: false,
  })
  const record = await recordOf(container, prepared.record_id)
  if (!errors?.length) return resultOf(record)
  await explainFailedCapture(container, record, (errors[0].error as Error)?.message ?? "the capture workflow failed")
  return resultOf(await recordOf(container, prepared.record_id))
}

/** The capture's record as it stands now. */
async function recordOf(container: MedusaContainer, id: string): Promise<MoneyRecordRow> {
  return (await pluginRecords(container).retrievePayBrightMoneyRecord(id)) as unknown as MoneyRecordRow
}

/** The record of a capture whose Medusa workflow failed, made to say what happened at the lender. */
async function explainFailedCapture(container: MedusaContainer, record: MoneyRecordRow, error: string) {
  const records = recordsWriter(container)
  if (record.state === "pending" && !record.medusa_id) {
    await records.refuseUnstartedRecord(record.id, { message: notStartedMessage("capture", error) })
    return
  }
  if (record.state === "done") {
    // Made at the lender, then Medusa removed its Capture: in doubt, as every such record.
    await doubtOf(records, record.payment_id!, await medusaRowsOf(container, record.payment_id!))
    return
  }
  if (record.state !== "pending") return
  const kept = record.medusa_id
    ? (await container.resolve(Modules.PAYMENT).listCaptures({ id: record.medusa_id })).length > 0
    : false
  const facts = {
    movement: "capture" as const,
    amount: lenderAmount(record.amount as never),
    currency: record.currency_code,
    contract: record.contract ?? "?",
    via: await viaOf(container, record.payment_id),
  }
  if (kept) {
    // Medusa kept its Capture: the lender's part was made, whatever failed after it.
    await records.concludeMoneyRecord(record.id, {
      state: "done",
      message: merchantMessage({ ...facts, outcome: "done" }),
      amount: facts.amount,
    })
    return
  }
  const message = merchantMessage({
    ...facts,
    outcome: "in_doubt",
    fact: said("medusa_failed_after_call", { error: factOf(error) }),
  })
  await records.putMoneyRecordInDoubt(record.id, { message, reason: "failed_after_call" })
  container
    .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    .error(`PayBright: capture IN DOUBT (record ${record.id}): ${english(message)}`)
}

function resultOf(record: Pick<MoneyRecordRow, "id" | "state" | "amount" | "message" | "said">): CaptureResult {
  const status = record.state === "pending" ? "in_doubt" : record.state
  return {
    status,
    amount: lenderAmount(record.amount as never),
    recordId: record.id,
    message: record.message,
    said: record.said,
  }
}
