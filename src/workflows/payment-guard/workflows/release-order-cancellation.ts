import { giveLock } from "../../locks/take-lock"
import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { dropUnclaimedStep } from "../steps/drop-unclaimed"

/** Releases what guardOrderCancellationWorkflow took, and drops the records Medusa did not claim. */
export const releaseOrderCancellationWorkflow = createWorkflow(
  "paybright-release-order-cancellation-workflow",
  (input: { keys: string[]; prepared: string[]; owner_id: string }) => {
    dropUnclaimedStep({ record_ids: input.prepared })
    giveLock(input.keys, input.owner_id)
    return new WorkflowResponse(true)
  }
)
