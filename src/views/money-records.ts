import type { MedusaContainer } from "@medusajs/framework/types"
import { pluginRecords } from "../lib/plugin-records"
import type { MoneyRecordRow } from "../modules/paybright/money-record-types"
import { toMoneyRecord } from "../lib/money-record-view"
import { medusaCaptureOf, recordActions } from "./record-actions"
import { nothingLeftToCapture, openRefusals } from "../lib/open-refusals"
import type { PayBrightAttentionAction, PayBrightMoneyRecord } from "../lib/admin-types"

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

/**
 * The captures and refunds of one PayBright payment, newest first: the one place the order panel
 * reads money records from. Every capture and refund, whoever started it, has its record, written
 * before the lender was called and concluded with its outcome.
 */
export async function moneyRecordsOfPayment(
  container: MedusaContainer,
  payment: Pick<PanelPayment, "id">,
  /** The payments its contract was authorized on before (carried after an order change), whose records it continues. */
  earlier: string[] = []
): Promise<(PayBrightMoneyRecord & { actions: PayBrightAttentionAction[] })[]> {
  const module = pluginRecords(container)
  const ids = [payment.id, ...earlier]
  const rows = (await module.listPayBrightMoneyRecords(
    { payment_id: ids },
    { order: { created_at: "DESC" } }
  )) as unknown as MoneyRecordRow[]
  const [fullyCaptured, medusaCapture] = await Promise.all([
    nothingLeftToCapture(container, ids),
    medusaCaptureOf(container, ids),
  ])
  const open = new Set(openRefusals(rows, (paymentId) => fullyCaptured.has(paymentId)).map((row) => row.id))
  // A refusal retried, or made good since (see openRefusals), offers nothing more.
  return rows.map((row) => ({
    ...toMoneyRecord(row),
    actions: recordActions(
      row,
      row.state === "refused" && !open.has(row.id),
      row.payment_id ? medusaCapture.get(row.payment_id) : undefined
    ),
  }))
}
