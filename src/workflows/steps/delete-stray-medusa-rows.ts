import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { UnclaimedRecord } from "./find-stale-records"

export const deleteStrayMedusaRowsStepId = "paybright-delete-stray-medusa-rows-step"

export type DeleteStrayMedusaRowsInput = { unclaimed: UnclaimedRecord[] }

/**
 * The Captures and Refunds Medusa committed for movements that never reached the provider (the
 * provider claims its record before it calls anyone, and these records were never claimed): they
 * go, as Medusa drops one itself when the provider fails, and before their records change, so a
 * stop in between leaves the records to the next run.
 *
 * No compensation: such a row stands for money that never moved; putting it back would have
 * Medusa count it.
 */
export const deleteStrayMedusaRowsStep = createStep(
  deleteStrayMedusaRowsStepId,
  async (input: DeleteStrayMedusaRowsInput, { container }) => {
    const strays = (kind: "capture" | "refund") =>
      input.unclaimed.filter(({ record, stray }) => stray && record.kind === kind).map(({ stray }) => stray!)
    const payments = container.resolve(Modules.PAYMENT)
    const captures = strays("capture")
    const refunds = strays("refund")
    if (captures.length) await payments.deleteCaptures(captures)
    if (refunds.length) await payments.deleteRefunds(refunds)
    return new StepResponse({ captures, refunds })
  }
)
