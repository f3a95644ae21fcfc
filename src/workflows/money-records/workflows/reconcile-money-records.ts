import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { reconcileRecordsStep, type ReconcileInput } from "../steps/reconcile-records"

/** How long a capture or refund may stay pending before it is taken to be in doubt. */
export const STALE_PENDING_MS = 5 * 60 * 1000

/** The reconciliation the scheduled job runs: stale pending records to in doubt, unexplained Medusa rows listed. */
export const reconcileMoneyRecordsWorkflow = createWorkflow(
  "paybright-reconcile-money-records-workflow",
  (input: ReconcileInput) => {
    return new WorkflowResponse(reconcileRecordsStep(input))
  }
)
