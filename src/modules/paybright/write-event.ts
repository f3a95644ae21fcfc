import type PayBrightModuleService from "./service"

/** One row of the payment's event log (timeline and audit trail). */
export type PaymentEvent = {
  kind: string
  payment_id: string | null
  order_id: string | null
  contract: string | null
  message: string
  actor?: string
  details?: Record<string, unknown>
}

export async function writeEvent(records: PayBrightModuleService, event: PaymentEvent): Promise<void> {
  await records.createPayBrightEvents({ actor: "system", ...event, details: event.details ?? null } as never)
}
