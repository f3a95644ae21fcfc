import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { recordPayBrightEventsStep } from "../steps/record-paybright-events"

export type PayBrightEventInput = {
  kind: string
  message: string
  actor: string
  payment_id?: string | null
  order_id?: string | null
  contract?: string | null
  details?: Record<string, unknown> | null
}

/** Records one event-log row (a card reveal, …) through a workflow, as every write in the plugin. */
export const recordPayBrightEventWorkflow = createWorkflow(
  "paybright-record-event-workflow",
  (input: PayBrightEventInput) => {
    const rows = transform({ input }, ({ input }) => [input])
    return new WorkflowResponse(recordPayBrightEventsStep(rows))
  }
)
