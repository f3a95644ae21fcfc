import { giveLock } from "./take-lock"
import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { dropUnclaimedStep } from "./steps/drop-unclaimed"

/** Once the cancellation is answered: gives back what guardOrderCancellationWorkflow took, and drops the records Medusa did not claim. */
export const finishOrderCancellationWorkflow = createWorkflow(
  "paybright-finish-order-cancellation-workflow",
  (input: { keys: string[]; prepared: string[]; owner_id: string }) => {
    dropUnclaimedStep({ record_ids: input.prepared })
    giveLock(input.keys, input.owner_id)
    return new WorkflowResponse(true)
  }
)
