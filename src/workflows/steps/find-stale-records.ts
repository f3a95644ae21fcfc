import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { stalePendingRecords, unclaimedMedusaRow } from "../../lib/reconciliation"
import type { MoneyRecordRow } from "../../modules/paybright/money-record-types"

export const findStaleRecordsStepId = "paybright-find-stale-records-step"

export type ReconcileInput = { stale_after_ms: number }

/** A record written ahead of a movement that never claimed it, and the Capture or Refund Medusa committed for it, if any. */
export type UnclaimedRecord = { record: MoneyRecordRow; stray: string | null }

export type StaleRecords = {
  /** The moment before which a pending record or card movement is stale (ISO), the same for every step of the run. */
  cutoff: string
  unclaimed: UnclaimedRecord[]
  /** Claimed by their movement (Medusa's id on them), whose call never ended here. */
  claimed: MoneyRecordRow[]
}

/**
 * The records still `pending` long after their call began: their process died mid-call, or the
 * call hangs far past any timeout. Reads only, so nothing to compensate.
 */
export const findStaleRecordsStep = createStep(
  findStaleRecordsStepId,
  async (input: ReconcileInput, { container }): Promise<StepResponse<StaleRecords>> => {
    const cutoff = new Date(Date.now() - input.stale_after_ms)
    const stale = await stalePendingRecords(container, cutoff)
    const unclaimed: UnclaimedRecord[] = []
    for (const record of stale.filter((row) => !row.medusa_id)) {
      unclaimed.push({ record, stray: (await unclaimedMedusaRow(container, record)) ?? null })
    }
    const claimed = stale.filter((row) => row.medusa_id)
    return new StepResponse({ cutoff: cutoff.toISOString(), unclaimed, claimed })
  }
)
