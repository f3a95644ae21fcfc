import { MathBN } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PAYBRIGHT_MODULE } from "../modules/paybright"
import type PayBrightModuleService from "../modules/paybright/service"
import type { PayBrightMoneyRecord } from "../types/admin"

/** A PayBright payment with its Medusa captures and refunds, as the order panel reads it. */
export type PanelPayment = {
  id: string
  currency_code: string
  captures: { id: string; amount: unknown; created_at: string | Date; created_by?: string | null }[]
  refunds: {
    id: string
    amount: unknown
    created_at: string | Date
    created_by?: string | null
    note?: string | null
  }[]
}

const STATES = { captured: "done", failed: "refused", pending: "pending" } as const

/**
 * The captures and refunds of one PayBright payment, newest first: the one place the order panel
 * and the needs-attention list read money records from. Built today from the plugin's capture rows
 * (captures made at shipment or fulfillment, with the lender's refusals) and Medusa's own captures
 * and refunds; when per-attempt money records with in-doubt states exist, this function reads them
 * instead and nothing else changes.
 */
export async function moneyRecordsOfPayment(
  container: MedusaContainer,
  payment: PanelPayment
): Promise<PayBrightMoneyRecord[]> {
  const module = container.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
  const rows = await module.listPayBrightCaptures({ payment_id: payment.id }, { order: { created_at: "ASC" } })
  const currency = payment.currency_code
  const unmatched = [...payment.captures].sort((a, b) => time(a.created_at) - time(b.created_at))
  const records: PayBrightMoneyRecord[] = []

  for (const row of rows) {
    const amount = MathBN.convert(row.amount as never)
    // The Medusa capture a completed shipment capture made: the first of the same amount not before it.
    const index =
      row.status === "captured"
        ? unmatched.findIndex(
            (capture) =>
              (row.capture_id ? capture.id === row.capture_id : MathBN.eq(capture.amount as never, amount)) &&
              time(capture.created_at) >= time(row.created_at) - 1000
          )
        : -1
    const medusa = index >= 0 ? unmatched.splice(index, 1)[0] : undefined
    records.push({
      id: row.id,
      kind: "capture",
      trigger: row.trigger,
      amount: amount.toFixed(2),
      currency_code: currency,
      state: STATES[row.status],
      reference: medusa?.id ?? null,
      medusa_id: medusa?.id ?? row.capture_id ?? null,
      message: row.status === "failed" ? row.last_error : null,
      lender_evidence: null,
      resolved_by: null,
      resolved_at: null,
      created_at: new Date(row.updated_at as never).toISOString(),
    })
  }
  for (const capture of unmatched) {
    records.push({
      ...doneRecord(capture, "capture", currency),
      trigger: "admin",
    })
  }
  for (const refund of payment.refunds) {
    records.push({ ...doneRecord(refund, "refund", currency), message: refund.note ?? null })
  }
  return records.sort((a, b) => b.created_at.localeCompare(a.created_at))
}

function doneRecord(
  entry: { id: string; amount: unknown; created_at: string | Date },
  kind: "capture" | "refund",
  currency: string
): PayBrightMoneyRecord {
  return {
    id: entry.id,
    kind,
    trigger: "admin",
    amount: MathBN.convert(entry.amount as never).toFixed(2),
    currency_code: currency,
    state: "done",
    reference: entry.id,
    medusa_id: entry.id,
    message: null,
    lender_evidence: null,
    resolved_by: null,
    resolved_at: null,
    created_at: new Date(entry.created_at).toISOString(),
  }
}

function time(value: string | Date) {
  return new Date(value).getTime()
}
