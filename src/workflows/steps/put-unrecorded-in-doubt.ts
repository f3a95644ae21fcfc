import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { putInDoubt } from "../../lib/in-doubt"
import { lenderAmount } from "../../lib/lender-cents"
import { type ReconcileReport, unrecordedMovements } from "../../lib/reconciliation"
import { recordsWriter } from "../../lib/plugin-records"

export const putUnrecordedInDoubtStepId = "paybright-put-unrecorded-in-doubt-step"

/**
 * Money the lender moved that Medusa no longer counts (a done record whose Capture or Refund is
 * gone): in doubt, so nothing moves twice, and listed.
 *
 * No compensation: taking a doubt back would let the same money move again.
 */
export const putUnrecordedInDoubtStep = createStep(
  putUnrecordedInDoubtStepId,
  async (_: Record<string, never>, { container }) => {
    const records = recordsWriter(container)
    const unrecorded: ReconcileReport["unrecorded"] = []
    for (const record of await unrecordedMovements(container)) {
      if (record.medusa_id) await putInDoubt(records, record)
      unrecorded.push({
        record_id: record.id,
        kind: record.kind as "capture" | "refund",
        payment_id: record.payment_id!,
        contract: record.contract,
        amount: lenderAmount(record.amount as never),
      })
    }
    if (unrecorded.length > 0) {
      container
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .error(
          `PayBright: ${unrecorded.length} capture(s)/refund(s) made at the lender are not recorded in Medusa: ${unrecorded.map((row) => `${row.kind} of ${row.amount} on contract ${row.contract} (record ${row.record_id})`).join(", ")}`
        )
    }
    return new StepResponse(unrecorded)
  }
)
