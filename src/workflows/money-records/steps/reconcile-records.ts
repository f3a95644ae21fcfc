import { recordsWriter } from "../../../modules/paybright/plugin-records"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { Logger } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { ledgersPartedMessage, merchantMessage, notStartedMessage } from "../../../messages/merchant-messages"
import { english, said } from "../../../messages/said"
import { lenderAmount } from "../../../money/lender-cents"
import { putInDoubt } from "../../../money/in-doubt"
import {
  type ReconcileReport,
  stalePendingRecords,
  unclaimedMedusaRow,
  unexplainedMedusaRows,
  unrecordedMovements,
  voidedPaymentsLeftLive,
} from "../../../money/reconciliation"
import { concludeRelease } from "../../../release/release-contract"

import { viaOf } from "../../../settlement/movement-via"

export type ReconcileInput = { stale_after_ms: number }

/**
 * A record still `pending` long after its call began belongs to a process that died mid-call (or
 * a call still hanging far past any timeout): the lender may have acted, so it becomes in doubt
 * for a person to resolve; one without Medusa's id was never claimed by its movement, so nothing
 * was sent and it is refused. Also puts in doubt Medusa's captures and refunds of PayBright
 * payments that no record explains, and done records whose Medusa row is gone, so nothing counted
 * on one side goes unexplained on the other; and cancels in Medusa a payment whose contract the
 * lender released while Medusa kept it live.
 */
export const reconcileRecordsStep = createStep(
  "paybright-reconcile-records-step",
  async (input: ReconcileInput, { container }) => {
    const records = recordsWriter(container)
    const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    const cutoff = new Date(Date.now() - input.stale_after_ms)
    const report: ReconcileReport = {
      in_doubt: [],
      never_started: [],
      unexplained: [],
      unrecorded: [],
      card_in_doubt: [],
      released_in_medusa: [],
    }
    for (const record of await stalePendingRecords(container, cutoff)) {
      if (!record.medusa_id) {
        // Written ahead of a movement that never claimed it (its process stopped first): nothing was
        // sent, since the provider claims the record before it calls anyone. Medusa may have committed
        // its Capture or Refund row already; it goes, as Medusa drops one when the provider fails,
        // and before the record changes, so a stop in between leaves the record to the next run.
        const stray = await unclaimedMedusaRow(container, record)
        if (stray) {
          const payments = container.resolve(Modules.PAYMENT)
          if (record.kind === "capture") await payments.deleteCaptures([stray])
          else await payments.deleteRefunds([stray])
        }
        const message = notStartedMessage(record.kind, said("server_stopped_before"))
        await records.refuseUnstartedRecord(record.id, { message, medusa_id: stray ?? null })
        report.never_started.push(record.id)
        continue
      }
      const amount = lenderAmount(record.amount as never)
      const message = merchantMessage({
        movement: record.kind,
        outcome: "in_doubt",
        amount,
        currency: record.currency_code,
        contract: record.contract ?? "?",
        via: await viaOf(container, record.payment_id),
        fact: said("call_never_finished"),
      })
      await records.putMoneyRecordInDoubt(record.id, { message, reason: "reconciliation" })
      logger.error(
        `PayBright: ${record.kind} IN DOUBT (record ${record.id}, contract ${record.contract}, ${amount} ${record.currency_code.toUpperCase()}): ${english(message)}`
      )
      report.in_doubt.push(record.id)
    }
    report.card_in_doubt = await records.putStaleCardMovementsInDoubt(cutoff)
    // Money the lender moved that Medusa no longer counts: in doubt, so nothing moves twice.
    for (const record of await unrecordedMovements(container)) {
      if (record.medusa_id) await putInDoubt(records, record)
      report.unrecorded.push({
        record_id: record.id,
        kind: record.kind as "capture" | "refund",
        payment_id: record.payment_id!,
        contract: record.contract,
        amount: lenderAmount(record.amount as never),
      })
    }
    if (report.unrecorded.length > 0) {
      logger.error(
        `PayBright: ${report.unrecorded.length} capture(s)/refund(s) made at the lender are not recorded in Medusa: ${report.unrecorded.map((row) => `${row.kind} of ${row.amount} on contract ${row.contract} (record ${row.record_id})`).join(", ")}`
      )
    }
    // Money Medusa counts that no PayBright record explains: in doubt, so a person looks at the portal.
    for (const row of await unexplainedMedusaRows(container, cutoff)) {
      const message = ledgersPartedMessage({
        movement: row.kind,
        side: "unexplained_in_medusa",
        amount: row.amount,
        currency: row.currency_code,
        contract: row.contract ?? "?",
      })
      await records.recordUnexplainedMovement(row, message)
      report.unexplained.push({ kind: row.kind, id: row.medusa_id, payment_id: row.payment_id!, amount: row.amount })
    }
    if (report.unexplained.length > 0) {
      logger.error(
        `PayBright: ${report.unexplained.length} Medusa capture(s)/refund(s) of PayBright payments have no PayBright record, now in doubt: ${report.unexplained.map((row) => `${row.kind} ${row.id} (${row.amount})`).join(", ")}`
      )
    }
    // A contract the lender released whose payment Medusa still holds live: Medusa cancels it (the
    // provider finds the void done and calls no one), so nothing is captured on a voided contract.
    for (const record of await voidedPaymentsLeftLive(container)) {
      try {
        await concludeRelease(container, record)
        report.released_in_medusa.push(record.payment_id!)
      } catch (error) {
        logger.error(
          `PayBright: contract ${record.contract} was released at PayBright, but Medusa still holds payment ${record.payment_id} live and refused to cancel it: ${(error as Error).message}`
        )
      }
    }
    if (report.released_in_medusa.length > 0) {
      logger.warn(
        `PayBright: cancelled in Medusa ${report.released_in_medusa.length} payment(s) whose contract PayBright had already released: ${report.released_in_medusa.join(", ")}`
      )
    }
    return new StepResponse(report)
  }
)
