import { pluginRecords } from "../../lib/plugin-records"
import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { findRecord } from "../../lib/record-queries"
import { requireApprovalOfContract, releaseOrphan, releasePaymentAgain } from "../../lib/release-contract"

/** A person retries a release the lender refused (or the plugin could not make). */
export const retryReleaseStep = createStep(
  "paybright-retry-release-step",
  async (input: { record_id: string }, { container }) => {
    const record = await findRecord(container, input.record_id)
    if (record.kind !== "void" || record.state !== "refused") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        record.kind !== "void"
          ? "This record is not a release of a contract; there is nothing to retry here."
          : `This release is ${record.state === "done" ? "done" : "not refused"}; there is nothing to retry.`
      )
    }
    const [newer] = await pluginRecords(container).listPayBrightMoneyRecords({ retry_of: record.id })
    if (newer) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "This release was already retried; retry the newest attempt."
      )
    }
    const outcome = record.payment_id
      ? await releasePaymentAgain(container, record)
      : await releaseOrphan(container, (await requireApprovalOfContract(container, record.contract!)).id, record.id)
    if (!outcome.released) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Nothing to release: ${outcome.skipped}.`)
    }
    return new StepResponse(await findRecord(container, outcome.released.recordId))
  }
)
