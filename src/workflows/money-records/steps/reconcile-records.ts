import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { merchantMessage, notStartedMessage } from "../../../messages/merchant-messages"
import { writeEvent } from "../../../modules/paybright/write-event"
import { lenderAmount } from "../../../money/lender-cents"
import { medusaAmountOf, type MoneyRecordRow } from "../../../money/money-record-types"
import { lockTtlSeconds } from "../../../locks/lock-lease"
import { viaOf } from "../../../settlement/movement-via"
import { recordsOf } from "../../../money/record-queries"
import { putInDoubt } from "../../../money/in-doubt"
import { PAYBRIGHT_PROVIDER_PREFIX } from "../../../storefront/provider"

export type ReconcileInput = { stale_after_ms: number }

export type ReconcileReport = {
  /** Records moved from pending to in doubt. */
  in_doubt: string[]
  /**
   * Records written ahead of a movement that never started (no Medusa id): refused, nothing was
   * sent; a Capture or Refund Medusa committed for one is removed.
   */
  never_started: string[]
  /** Medusa captures and refunds of PayBright payments that no record confirms. */
  unexplained: { kind: "capture" | "refund"; id: string; payment_id: string; amount: string }[]
  /** Done records (lender evidence) that no Medusa capture or refund records: money Medusa does not count. */
  unrecorded: {
    record_id: string
    kind: "capture" | "refund"
    payment_id: string
    contract: string | null
    amount: string
  }[]
  /** Virtual-card movements left pending by a stopped process, now in doubt. */
  card_in_doubt: string[]
}

/**
 * A record still `pending` long after its call began belongs to a process that died mid-call (or
 * a call still hanging far past any timeout): the lender may have acted, so it becomes in doubt
 * for a person to resolve; one without Medusa's id was never claimed by its movement, so nothing
 * was sent and it is refused. Also lists Medusa's captures and refunds of PayBright payments that no
 * done record confirms, so nothing counted in Medusa goes unexplained.
 */
export const reconcileRecordsStep = createStep(
  "paybright-reconcile-records-step",
  async (input: ReconcileInput, { container }) => {
    const records = recordsOf(container)
    const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    const cutoff = new Date(Date.now() - input.stale_after_ms)
    const stale = (await records.listPayBrightMoneyRecords({
      state: "pending",
      updated_at: { $lt: cutoff },
    } as never)) as unknown as MoneyRecordRow[]
    const report: ReconcileReport = {
      in_doubt: [],
      never_started: [],
      unexplained: [],
      unrecorded: [],
      card_in_doubt: [],
    }
    for (const record of stale.filter((row) => !row.medusa_id)) {
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
      await records.updatePayBrightMoneyRecords({
        id: record.id,
        state: "refused",
        medusa_id: stray ?? null,
        message: notStartedMessage(record.kind, "the server may have stopped before it began"),
      })
      report.never_started.push(record.id)
    }
    for (const record of stale.filter((row) => row.medusa_id)) {
      const message = merchantMessage({
        movement: record.kind,
        outcome: "in_doubt",
        amount: lenderAmount(record.amount as never),
        currency: record.currency_code,
        contract: record.contract ?? "?",
        via: await viaOf(container, record.payment_id),
        fact: "the call never finished; the server may have stopped during it",
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
        `PayBright: ${record.kind} IN DOUBT (record ${record.id}, contract ${record.contract}, ${lenderAmount(record.amount as never)} ${record.currency_code.toUpperCase()}): ${message}`
      )
      report.in_doubt.push(record.id)
    }
    report.card_in_doubt = await staleCardMovements(container, cutoff)
    report.unrecorded = await unrecordedMovements(container)
    // Money the lender moved that Medusa no longer counts: in doubt, so nothing moves twice.
    for (const row of report.unrecorded) {
      const [record] = (await records.listPayBrightMoneyRecords({ id: row.record_id })) as unknown as MoneyRecordRow[]
      if (record?.medusa_id) await putInDoubt(records, record, "removed_by_medusa")
    }
    if (report.unrecorded.length > 0) {
      logger.error(
        `PayBright: ${report.unrecorded.length} capture(s)/refund(s) made at the lender are not recorded in Medusa: ${report.unrecorded.map((row) => `${row.kind} of ${row.amount} on contract ${row.contract} (record ${row.record_id})`).join(", ")}`
      )
    }
    report.unexplained = await unexplainedMedusaRows(container, cutoff)
    if (report.unexplained.length > 0) {
      logger.error(
        `PayBright: ${report.unexplained.length} Medusa capture(s)/refund(s) of PayBright payments have no PayBright record, now in doubt: ${report.unexplained.map((row) => `${row.kind} ${row.id} (${row.amount})`).join(", ")}`
      )
    }
    return new StepResponse(report)
  }
)

/**
 * The Capture or Refund Medusa committed for an unclaimed record before its process stopped: a row
 * of the record's payment and kind, of its exact amount, made within the payment lock's lease after
 * the record (its movement held the lock), that no record names.
 */
async function unclaimedMedusaRow(container: MedusaContainer, record: MoneyRecordRow): Promise<string | undefined> {
  if (!record.payment_id || (record.kind !== "capture" && record.kind !== "refund")) return undefined
  const payments = container.resolve(Modules.PAYMENT)
  const rows: { id: string; amount: unknown; raw_amount?: unknown; created_at: Date | string }[] =
    record.kind === "capture"
      ? await payments.listCaptures({ payment_id: record.payment_id } as never)
      : await payments.listRefunds({ payment_id: record.payment_id } as never)
  const from = new Date(record.created_at).getTime()
  const until = from + lockTtlSeconds() * 1000
  const candidates = rows.filter((row) => {
    const at = new Date(row.created_at).getTime()
    return at >= from && at <= until && MathBN.eq((row.raw_amount ?? row.amount) as never, medusaAmountOf(record))
  })
  if (candidates.length === 0) return undefined
  const claimed = new Set(
    (
      (await recordsOf(container).listPayBrightMoneyRecords(
        { medusa_id: candidates.map((row) => row.id) },
        { select: ["medusa_id"] }
      )) as unknown as MoneyRecordRow[]
    ).map((row) => row.medusa_id)
  )
  return candidates.find((row) => !claimed.has(row.id))?.id
}

/**
 * A card charge or refund left pending by a process that stopped mid-call: the processor may have
 * moved the money, so it is in doubt, like a record; its record is reconciled above.
 */
async function staleCardMovements(container: MedusaContainer, cutoff: Date): Promise<string[]> {
  const records = recordsOf(container)
  const stale = (await records.listPayBrightCardTransactions({
    state: "pending",
    updated_at: { $lt: cutoff },
  } as never)) as { id: string }[]
  for (const row of stale) await records.updatePayBrightCardTransactions({ id: row.id, state: "in_doubt" })
  return stale.map((row) => row.id)
}

/** Done captures and refunds whose Medusa Capture or Refund is missing: the other way round from `unexplained`. */
async function unrecordedMovements(container: MedusaContainer): Promise<ReconcileReport["unrecorded"]> {
  const done = (await recordsOf(container).listPayBrightMoneyRecords({
    state: "done",
    kind: ["capture", "refund"],
  })) as unknown as MoneyRecordRow[]
  const payments = container.resolve(Modules.PAYMENT)
  const ids = (kind: "capture" | "refund") =>
    done.filter((row) => row.kind === kind && row.medusa_id).map((row) => row.medusa_id!)
  const recorded = new Set([
    ...(await payments.listCaptures({ id: ids("capture") }, { select: ["id"] })).map((row) => row.id),
    ...(await payments.listRefunds({ id: ids("refund") }, { select: ["id"] })).map((row) => row.id),
  ])
  return done
    .filter((row) => !row.medusa_id || !recorded.has(row.medusa_id))
    .map((row) => ({
      record_id: row.id,
      kind: row.kind as "capture" | "refund",
      payment_id: row.payment_id!,
      contract: row.contract,
      amount: lenderAmount(row.amount as never),
    }))
}

/**
 * Medusa's captures and refunds of PayBright payments, older than the stale cutoff, that no record
 * names (not even one still running): Medusa counts money no PayBright record explains. Each gets
 * a record in doubt, so a person looks at the portal and the payment moves no further meanwhile.
 */
async function unexplainedMedusaRows(
  container: MedusaContainer,
  cutoff: Date
): Promise<ReconcileReport["unexplained"]> {
  const records = recordsOf(container)
  const { data: payments } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "payment",
    fields: [
      "id",
      "captures.id",
      "captures.amount",
      "captures.raw_amount",
      "captures.created_at",
      "refunds.id",
      "refunds.amount",
      "refunds.raw_amount",
      "refunds.created_at",
    ],
    filters: { provider_id: { $like: `${PAYBRIGHT_PROVIDER_PREFIX}%` } } as never,
  })
  const named = new Set(
    (
      (await records.listPayBrightMoneyRecords({ medusa_id: { $ne: null } } as never, {
        select: ["medusa_id"],
      })) as unknown as MoneyRecordRow[]
    ).map((record) => record.medusa_id)
  )
  const unexplained: ReconcileReport["unexplained"] = []
  for (const payment of payments as any[]) {
    for (const [kind, rows] of [
      ["capture", payment.captures],
      ["refund", payment.refunds],
    ] as const) {
      for (const row of rows ?? []) {
        if (named.has(row.id) || new Date(row.created_at) >= cutoff) continue
        const exact = MathBN.convert(row.raw_amount ?? row.amount)
        const [of] = await container
          .resolve(Modules.PAYMENT)
          .listPayments({ id: payment.id }, { select: ["id", "data", "currency_code", "payment_collection_id"] })
        const record = (await records.createPayBrightMoneyRecords({
          kind,
          trigger: "admin",
          payment_id: payment.id,
          order_id: await orderOfCollection(container, of.payment_collection_id),
          contract: (of.data as { gateway_reference?: string } | null)?.gateway_reference ?? null,
          amount: lenderAmount(exact) as never,
          medusa_amount: exact.toString() as never,
          currency_code: of.currency_code,
          medusa_id: row.id,
          state: "pending",
        })) as unknown as MoneyRecordRow
        await putInDoubt(records, record, "unexplained_in_medusa")
        unexplained.push({ kind, id: row.id, payment_id: payment.id, amount: lenderAmount(exact) })
      }
    }
  }
  return unexplained
}

async function orderOfCollection(container: MedusaContainer, paymentCollectionId: string): Promise<string | null> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order_payment_collection",
    fields: ["order_id"],
    filters: { payment_collection_id: paymentCollectionId },
  })
  return data[0]?.order_id ?? null
}
