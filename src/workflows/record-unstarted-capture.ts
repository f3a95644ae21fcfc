import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { recordUnstartedCaptureStep, type UnstartedCaptureInput } from "./steps/record-unstarted-capture"

/** Leaves a retryable record for a parcel whose capture could not even start. */
export const recordUnstartedCaptureWorkflow = createWorkflow(
  "paybright-record-unstarted-capture-workflow",
  (input: UnstartedCaptureInput) => {
    return new WorkflowResponse(recordUnstartedCaptureStep(input))
  }
)
