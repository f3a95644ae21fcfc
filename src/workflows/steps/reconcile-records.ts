import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import type { Logger } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { merchantMessage } from "../../messages/merchant-messages"
import { writeEvent } from "../../records/events"
import { twoDecimals } from "../../records/money-attempt"
import type { MoneyRecordRow } from "../../records/money-record-types"
import { recordsOf } from "./record-queries"

export type ReconcileInput = { stale_after_ms: number }

export type ReconcileReport = {
  /** Records moved from pending to in doubt. */
  in_doubt: string[]
  /** Medusa captures and refunds of PayBright payments that no record confirms. */
  unexplained: { kind: "capture" | "refund"; id: string; payment_id: string; amount: string }[]
}

/**
 * A record still `pending` long after its call began belongs to a process that died mid-call (or
 * a call still hanging far past any timeout): the lender may have acted, so it becomes in doubt
 * for a person to resolve. Also lists Medusa's captures and refunds of PayBright payments that no
 * done record confirms, so nothing counted in Medusa goes unexplained.
 */
export const reconcileRecordsStep = createStep(
  "paybright-reconcile-records",
  async (input: ReconcileInput, { container }) => {
    const records = recordsOf(container)
    const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    const cutoff = new Date(Date.now() - input.stale_after_ms)
    const stale = (await records.listPayBrightMoneyRecords({
      state: "pending",
      updated_at: { $lt: cutoff },
    } as never)) as unknown as MoneyRecordRow[]
    const report: ReconcileReport = { in_doubt: [], unexplained: [] }
    for (const record of stale) {
      const message = merchantMessage({
        movement: record.kind,
        outcome: "in_doubt",
        amount: twoDecimals(record.amount),
        currency: record.currency_code,
        contract: record.contract ?? "?",
        via: "PayBright",
        fact: "the call to the lender never finished; the server may have stopped during it",
      })
      await records.updatePayBrightMoneyRecords({ id: record.id, state: "in_doubt", message })
      await writeEvent(records, {
        kind: `${record.kind}.in_doubt`,
        payment_id: record.payment_id,
        order_id: record.order_id,
        contract: record.contract,
        message,
        details: { record_id: record.id, medusa_id: record.medusa_id, reason: "reconciliation" },
      })
      logger.error(
        `PayBright: ${record.kind} IN DOUBT (record ${record.id}, contract ${record.contract}, ${twoDecimals(record.amount)} ${record.currency_code.toUpperCase()}): ${message}`
      )
      report.in_doubt.push(record.id)
    }
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data: payments } = await query.graph({
      entity: "payment",
      fields: ["id", "provider_id", "captures.id", "captures.amount", "refunds.id", "refunds.amount"],
      filters: { provider_id: { $like: "pp_paybright_%" } } as never,
    })
    const confirmed = new Set(
      (
        (await records.listPayBrightMoneyRecords(
          { state: ["done", "in_doubt"] },
          { select: ["medusa_id"] }
        )) as unknown as MoneyRecordRow[]
      )
        .map((record) => record.medusa_id)
        .filter(Boolean)
    )
    for (const payment of payments as any[]) {
      for (const [kind, rows] of [
        ["capture", payment.captures],
        ["refund", payment.refunds],
      ] as const) {
        for (const row of rows ?? []) {
          if (!confirmed.has(row.id)) {
            report.unexplained.push({
              kind,
              id: row.id,
              payment_id: payment.id,
              amount: MathBN.convert(row.amount).toFixed(2),
            })
          }
        }
      }
    }
    if (report.unexplained.length > 0) {
      logger.warn(
        `PayBright: ${report.unexplained.length} Medusa capture(s)/refund(s) of PayBright payments have no lender evidence: ${report.unexplained.map((row) => `${row.kind} ${row.id} (${row.amount})`).join(", ")}`
      )
    }
    return new StepResponse(report)
  }
)
