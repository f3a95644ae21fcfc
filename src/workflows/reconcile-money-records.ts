import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { ReconcileReport } from "../lib/reconciliation"
import { cancelVoidedPaymentsStep } from "./steps/cancel-voided-payments"
import { deleteStrayMedusaRowsStep } from "./steps/delete-stray-medusa-rows"
import { findStaleRecordsStep, type ReconcileInput } from "./steps/find-stale-records"
import { putStaleCardMovementsInDoubtStep } from "./steps/put-stale-card-movements-in-doubt"
import { putStaleRecordsInDoubtStep } from "./steps/put-stale-records-in-doubt"
import { putUnrecordedInDoubtStep } from "./steps/put-unrecorded-in-doubt"
import { recordUnexplainedMovementsStep } from "./steps/record-unexplained-movements"
import { refuseUnstartedRecordsStep } from "./steps/refuse-unstarted-records"

/**
 * The reconciliation the scheduled job runs, so that nothing counted on one side goes unexplained
 * on the other:
 *
 * - a record still `pending` long after its call began belongs to a process that died mid-call (or
 *   a call still hanging far past any timeout): the lender may have acted, so it goes in doubt for
 *   a person to resolve; one without Medusa's id was never claimed by its movement, so nothing was
 *   sent: Medusa's row for it goes, and it is refused;
 * - the virtual card's movements left pending likewise go in doubt;
 * - done records whose Medusa row is gone, and Medusa's captures and refunds of PayBright payments
 *   that no record explains, go in doubt;
 * - a payment whose contract the lender voided while Medusa kept it live is cancelled in Medusa.
 */
export const reconcileMoneyRecordsWorkflow = createWorkflow(
  "paybright-reconcile-money-records-workflow",
  (input: ReconcileInput) => {
    const stale = findStaleRecordsStep(input)
    const unclaimed = transform({ stale }, ({ stale }) => ({ unclaimed: stale.unclaimed }))
    deleteStrayMedusaRowsStep(unclaimed)
    const neverStarted = refuseUnstartedRecordsStep(unclaimed)
    const inDoubt = putStaleRecordsInDoubtStep(transform({ stale }, ({ stale }) => ({ claimed: stale.claimed })))
    const cutoff = transform({ stale }, ({ stale }) => ({ cutoff: stale.cutoff }))
    const cardInDoubt = putStaleCardMovementsInDoubtStep(cutoff)
    const unrecorded = putUnrecordedInDoubtStep({})
    const unexplained = recordUnexplainedMovementsStep(cutoff)
    const cancelledInMedusa = cancelVoidedPaymentsStep({})
    const report = transform(
      { neverStarted, inDoubt, cardInDoubt, unrecorded, unexplained, cancelledInMedusa },
      (done): ReconcileReport => ({
        in_doubt: done.inDoubt,
        never_started: done.neverStarted,
        unexplained: done.unexplained,
        unrecorded: done.unrecorded,
        card_in_doubt: done.cardInDoubt,
        cancelled_in_medusa: done.cancelledInMedusa,
      })
    )
    return new WorkflowResponse(report)
  }
)
