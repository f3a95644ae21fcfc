import { pluginRecords } from "../../lib/plugin-records"
import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { findRecord } from "../../lib/record-queries"
import { requireApprovalOfContract, voidOrphan, voidPaymentAgain } from "../../lib/void-contract"

/** A person retries a void the lender refused (or the plugin could not make). */
export const retryVoidStep = createStep(
  "paybright-retry-void-step",
  async (input: { record_id: string }, { container }) => {
    const record = await findRecord(container, input.record_id)
    if (record.kind !== "void" || record.state !== "refused") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        record.kind !== "void"
          ? "This record is not a void of a contract; there is nothing to retry here."
          : `This void is ${record.state === "done" ? "done" : "not refused"}; there is nothing to retry.`
      )
    }
    const [newer] = await pluginRecords(container).listPayBrightMoneyRecords({ retry_of: record.id })
    if (newer) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This void was already retried; retry the newest attempt.")
    }
    const outcome = record.payment_id
      ? await voidPaymentAgain(container, record)
      : await voidOrphan(container, (await requireApprovalOfContract(container, record.contract!)).id, record.id)
    if (!outcome.voided) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Nothing to void: ${outcome.skipped}.`)
    }
    return new StepResponse(await findRecord(container, outcome.voided.recordId))
  }
)
