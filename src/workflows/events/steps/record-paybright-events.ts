import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { PAYBRIGHT_MODULE } from "../../../modules/paybright/index"
import type PayBrightModuleService from "../../../modules/paybright/service"
import type { NewEvent } from "../../../modules/paybright/service"

export type PayBrightEventInput = NewEvent

/** Appends rows to the event log (the order panel's timeline and the audit trail). */
export const recordPayBrightEventsStep = createStep(
  "paybright-record-events-step",
  async (events: PayBrightEventInput[], { container }) => {
    const ids = await container.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE).recordEvents(events)
    return new StepResponse(ids, ids)
  },
  async (ids, { container }) => {
    if (ids?.length) await container.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE).withdrawEvents(ids)
  }
)
