import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { type PayBrightEventInput, recordPayBrightEventsStep } from "./steps/record-paybright-events"

/** Records one event-log row (a card reveal, …) through a workflow, as every write in the plugin. */
export const recordPayBrightEventWorkflow = createWorkflow(
  "paybright-record-event-workflow",
  (input: PayBrightEventInput) => {
    const rows = transform({ input }, ({ input }) => [input])
    return new WorkflowResponse(recordPayBrightEventsStep(rows))
  }
)
