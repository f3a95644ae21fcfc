import { pluginRecords, recordsWriter } from "./plugin-records"
import { capturePaymentWorkflow } from "@medusajs/core-flows"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { factOf } from "./merchant-messages"
import { said } from "./texts/said"
import { concludeFoundEnd } from "./attempt-movement"
import { doubtOf } from "./in-doubt"
import { lenderAmount } from "./lender-cents"
import { medusaRowsOf } from "./record-queries"
import type { MoneyRecordRow } from "../modules/paybright/money-record-types"
import { viaOf } from "./movement-via"
import type { PreparedCapture } from "./prepare-capture"
import type { CaptureResult } from "./capture-types"

/**
 * How a capture the plugin made ended, read off its record once Medusa's capture workflow has run
 * (or was not run: `prepared` says why). When that workflow failed (`failure`, its error), the
 * record is first made to say what really happened: never reached the provider (refused,
 * retryable), or the provider made it and a later step failed, in which case Medusa's Capture is
 * looked up before anything is called failed.
 */
export async function captureResult(
  container: MedusaContainer,
  prepared: PreparedCapture,
  failure: string | null
): Promise<CaptureResult> {
  if (!prepared.record_id) return { status: "skipped", reason: prepared.proceed ? "" : prepared.reason }
  const record = await recordOf(container, prepared.record_id)
  if (!prepared.proceed || failure === null) return resultOf(record)
  await explainFailedCapture(container, record, failure)
  return resultOf(await recordOf(container, prepared.record_id))
}

/**
 * Medusa's own capture workflow, which creates the Capture and calls the provider (which concludes
 * the record through the money funnel): answers its error, if it failed, for captureResult.
 */
export async function captureInMedusa(
  container: MedusaContainer,
  capture: { payment_id: string; amount: string }
): Promise<string | null> {
  const { errors } = await capturePaymentWorkflow(container).run({
    input: { payment_id: capture.payment_id, amount: capture.amount as never },
    throwOnError: false,
  })
  if (!errors?.length) return null
  return (errors[0].error as Error)?.message ?? "the capture workflow failed"
}

/** The capture's record as it stands now. */
async function recordOf(container: MedusaContainer, id: string): Promise<MoneyRecordRow> {
  return (await pluginRecords(container).retrievePayBrightMoneyRecord(id)) as unknown as MoneyRecordRow
}

/** The record of a capture whose Medusa workflow failed, made to say what happened at the lender. */
async function explainFailedCapture(container: MedusaContainer, record: MoneyRecordRow, error: string) {
  const records = recordsWriter(container)
  if (record.state === "done") {
    // Made at the lender, then Medusa removed its Capture: in doubt, as every such record.
    await doubtOf(records, record.payment_id!, await medusaRowsOf(container, record.payment_id!))
    return
  }
  if (record.state !== "pending") return
  const funnel = { records, logger: container.resolve<Logger>(ContainerRegistrationKeys.LOGGER) }
  if (!record.medusa_id) {
    await concludeFoundEnd(funnel, record, { outcome: "not_started", fact: error })
    return
  }
  // Medusa kept its Capture: the lender's part was made, whatever failed after it.
  const kept = (await container.resolve(Modules.PAYMENT).listCaptures({ id: record.medusa_id })).length > 0
  const via = await viaOf(container, record.payment_id)
  const fact = said("medusa_failed_after_call", { error: factOf(error) })
  await concludeFoundEnd(
    funnel,
    record,
    kept ? { outcome: "done", via } : { outcome: "in_doubt", via, fact, reason: "failed_after_call" }
  )
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
