import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { reconcileRecordsStep, type ReconcileInput } from "../steps/reconcile-records"

/** The reconciliation the scheduled job runs: stale pending records to in doubt, unexplained Medusa rows listed. */
export const reconcileMoneyRecordsWorkflow = createWorkflow(
  "paybright-reconcile-money-records-workflow",
  (input: ReconcileInput) => {
    return new WorkflowResponse(reconcileRecordsStep(input))
  }
)
