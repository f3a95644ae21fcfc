import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { ledgersPartedMessage } from "../../lib/merchant-messages"
import { type ReconcileReport, unexplainedMedusaRows } from "../../lib/reconciliation"
import { recordsWriter } from "../../lib/plugin-records"

export const recordUnexplainedMovementsStepId = "paybright-record-unexplained-movements-step"

export type RecordUnexplainedMovementsInput = { cutoff: string }

/**
 * Money Medusa counts that no PayBright record explains (a Capture or Refund older than the
 * cutoff): a record in doubt for each, so a person looks at the portal, and listed.
 *
 * No compensation: taking a doubt back would let the payment's money move on unexplained.
 */
export const recordUnexplainedMovementsStep = createStep(
  recordUnexplainedMovementsStepId,
  async (input: RecordUnexplainedMovementsInput, { container }) => {
    const records = recordsWriter(container)
    const unexplained: ReconcileReport["unexplained"] = []
    for (const row of await unexplainedMedusaRows(container, new Date(input.cutoff))) {
      const message = ledgersPartedMessage({
        movement: row.kind,
        side: "unexplained_in_medusa",
        amount: row.amount,
        currency: row.currency_code,
        contract: row.contract ?? "?",
      })
      await records.recordUnexplainedMovement(row, message)
      unexplained.push({ kind: row.kind, id: row.medusa_id, payment_id: row.payment_id!, amount: row.amount })
    }
    if (unexplained.length > 0) {
      container
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .error(
          `PayBright: ${unexplained.length} Medusa capture(s)/refund(s) of PayBright payments have no PayBright record, now in doubt: ${unexplained.map((row) => `${row.kind} ${row.id} (${row.amount})`).join(", ")}`
        )
    }
    return new StepResponse(unexplained)
  }
)
