import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { PAYBRIGHT_MODULE } from "../../../modules/paybright/index"
import type PayBrightModuleService from "../../../modules/paybright/service"

export type PayBrightEventInput = {
  kind: string
  message: string
  actor: string
  payment_id?: string | null
  order_id?: string | null
  contract?: string | null
  details?: Record<string, unknown> | null
}

/** Appends rows to the event log (the order panel's timeline and the audit trail). */
export const recordPayBrightEventsStep = createStep(
  "paybright-record-events-step",
  async (events: PayBrightEventInput[], { container }) => {
    const module = container.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
    const created = await module.createPayBrightEvents(events)
    return new StepResponse(
      created,
      created.map((event) => event.id)
    )
  },
  async (ids, { container }) => {
    if (ids?.length) await container.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE).deletePayBrightEvents(ids)
  }
)
