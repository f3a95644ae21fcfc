import { capturePaymentWorkflow } from "@medusajs/core-flows"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { Logger } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { merchantMessage, notStartedMessage } from "../../../messages/merchant-messages"
import { lenderAmount } from "../../../money/lender-cents"
import type { CaptureResult } from "../../../capture/types"
import type { PreparedCapture } from "./prepare-capture-record"
import { viaOf } from "../../../settlement/movement-via"
import { findRecord, medusaRowsOf, recordsOf } from "../../../money/record-queries"
import { doubtOf } from "../../../money/in-doubt"

/**
 * Makes the prepared capture through Medusa's own capture workflow (which creates the Capture and
 * calls the provider, which concludes the record). When that workflow fails, the record says what
 * really happened: never reached the provider (refused, retryable), or the provider made it and
 * a later step failed, in which case Medusa's Capture is looked up before anything is called
 * failed.
 */
export const makeCaptureStep = createStep(
  "paybright-make-capture-step",
  async (prepared: PreparedCapture, { container }) => {
    if (!prepared.proceed) {
      if (!prepared.record_id) {
        return new StepResponse<CaptureResult>({ status: "skipped", reason: prepared.reason })
      }
      const record = await findRecord(container, prepared.record_id)
      return new StepResponse<CaptureResult>(resultOf(record))
    }
    const { errors } = await capturePaymentWorkflow(container).run({
      input: { payment_id: prepared.payment_id, amount: prepared.amount as never },
      throwOnError: false,
    })
    let record = await findRecord(container, prepared.record_id)
    if (errors?.length) {
      const error = (errors[0].error as Error)?.message ?? "the capture workflow failed"
      const records = recordsOf(container)
      if (record.state === "pending" && !record.medusa_id) {
        await records.updatePayBrightMoneyRecords({
          id: record.id,
          state: "refused",
          message: notStartedMessage("capture", error),
        })
      } else if (record.state === "done") {
        // Made at the lender, then Medusa removed its Capture: in doubt, as every such record.
        await doubtOf(records, record.payment_id!, await medusaRowsOf(container, record.payment_id!))
      } else if (record.state === "pending") {
        const exists = record.medusa_id ? await captureExists(container, record.medusa_id) : false
        if (!exists) {
          const message = merchantMessage({
            movement: "capture",
            outcome: "in_doubt",
            amount: lenderAmount(record.amount as never),
            currency: record.currency_code,
            contract: record.contract ?? "?",
            via: await viaOf(container, record.payment_id),
            fact: `the lender was called but Medusa's capture failed afterwards: ${error}`,
          })
          await records.updatePayBrightMoneyRecords({ id: record.id, state: "in_doubt", message })
          container
            .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
            .error(`PayBright: capture IN DOUBT (record ${record.id}): ${message}`)
        } else {
          await records.updatePayBrightMoneyRecords({ id: record.id, state: "done" })
        }
      }
      record = await findRecord(container, prepared.record_id)
    }
    return new StepResponse<CaptureResult>(resultOf(record))
  }
)

async function captureExists(
  container: Parameters<Parameters<typeof createStep>[1]>[1]["container"],
  captureId: string
) {
  const captures = await container.resolve(Modules.PAYMENT).listCaptures({ id: captureId })
  return captures.length > 0
}

function resultOf(record: { id: string; state: string; amount: unknown; message: string | null }): CaptureResult {
  const status = record.state === "pending" ? "in_doubt" : (record.state as "done" | "refused" | "in_doubt")
  return { status, amount: lenderAmount(record.amount as never), recordId: record.id, message: record.message }
}
