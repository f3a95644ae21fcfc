import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { recordsWriter } from "../../lib/plugin-records"
import type { NewEvent } from "../../modules/paybright/records"

export type PayBrightEventInput = NewEvent

/** Appends rows to the event log (the order panel's timeline and the audit trail). */
export const recordPayBrightEventsStep = createStep(
  "paybright-record-events-step",
  async (events: PayBrightEventInput[], { container }) => {
    const ids = await recordsWriter(container).recordEvents(events)
    return new StepResponse(ids, ids)
  },
  async (ids, { container }) => {
    if (ids?.length) await recordsWriter(container).withdrawEvents(ids)
  }
)
