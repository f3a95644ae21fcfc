import { pluginRecords } from "./plugin-records"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { lockTtlSeconds, secondsFromEnv } from "./lock-lease"
import { medusaAmountOf, type MoneyRecordRow } from "../modules/paybright/money-record-types"
import type { NewMoneyRecord } from "../modules/paybright/records"
import { PAYBRIGHT_PROVIDER_PREFIX } from "../storefront/provider"
import { lenderAmount } from "./lender-cents"
import { orderOfCollection } from "./medusa-links"

/** How long a capture or refund may stay pending, by default, before it is taken to be in doubt. */
export const STALE_PENDING_MS = 5 * 60 * 1000
/** Seconds a record may stay pending before reconciliation takes it to be in doubt (default 300). */
export const STALE_PENDING_ENV = "PAYBRIGHT_PENDING_IN_DOUBT_AFTER_SECONDS"

/**
 * How long the scheduled reconciliation leaves a pending record alone: PAYBRIGHT_PENDING_IN_DOUBT_AFTER_SECONDS,
 * else five minutes, and never less than the payment lock's lease, because a record younger than
 * the lease may belong to a movement still running under it.
 */
export function stalePendingMs(): number {
  const configured = secondsFromEnv(STALE_PENDING_ENV)
  const wanted = configured ? configured * 1000 : STALE_PENDING_MS
  return Math.max(wanted, lockTtlSeconds() * 1000)
}

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
  /** Payments whose contract the lender voided, left authorized in Medusa, now cancelled there. */
  cancelled_in_medusa: string[]
}

/** Records still pending since before `cutoff`: their movement's process stopped, or its call hangs far past any timeout. */
export async function stalePendingRecords(container: MedusaContainer, cutoff: Date): Promise<MoneyRecordRow[]> {
  return (await pluginRecords(container).listPayBrightMoneyRecords({
    state: "pending",
    updated_at: { $lt: cutoff },
  } as never)) as unknown as MoneyRecordRow[]
}

/**
 * The Capture or Refund Medusa committed for an unclaimed record before its process stopped: a row
 * of the record's payment and kind, of its exact amount, made within the payment lock's lease after
 * the record (its movement held the lock), that no record names.
 */
export async function unclaimedMedusaRow(
  container: MedusaContainer,
  record: MoneyRecordRow
): Promise<string | undefined> {
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
      (await pluginRecords(container).listPayBrightMoneyRecords(
        { medusa_id: candidates.map((row) => row.id) },
        { select: ["medusa_id"] }
      )) as unknown as MoneyRecordRow[]
    ).map((row) => row.medusa_id)
  )
  return candidates.find((row) => !claimed.has(row.id))?.id
}

/** Done captures and refunds whose Medusa Capture or Refund is missing: money the lender moved that Medusa does not count. */
export async function unrecordedMovements(container: MedusaContainer): Promise<MoneyRecordRow[]> {
  const done = (await pluginRecords(container).listPayBrightMoneyRecords({
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
  return done.filter((row) => !row.medusa_id || !recorded.has(row.medusa_id))
}

/**
 * Medusa's captures and refunds of PayBright payments, older than `cutoff`, that no record names
 * (not even one still running), each as the record that would explain it.
 */
export async function unexplainedMedusaRows(
  container: MedusaContainer,
  cutoff: Date
): Promise<(NewMoneyRecord & { kind: "capture" | "refund"; medusa_id: string })[]> {
  const { data: payments } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "payment",
    fields: [
      "id",
      "data",
      "currency_code",
      "payment_collection_id",
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
      (await pluginRecords(container).listPayBrightMoneyRecords({ medusa_id: { $ne: null } } as never, {
        select: ["medusa_id"],
      })) as unknown as MoneyRecordRow[]
    ).map((record) => record.medusa_id)
  )
  const unexplained: (NewMoneyRecord & { kind: "capture" | "refund"; medusa_id: string })[] = []
  for (const payment of payments as any[]) {
    for (const [kind, rows] of [
      ["capture", payment.captures],
      ["refund", payment.refunds],
    ] as const) {
      for (const row of rows ?? []) {
        if (named.has(row.id) || new Date(row.created_at) >= cutoff) continue
        const exact = MathBN.convert(row.raw_amount ?? row.amount)
        unexplained.push({
          kind,
          trigger: "admin",
          payment_id: payment.id,
          order_id:
            (await orderOfCollection(container.resolve(ContainerRegistrationKeys.QUERY), payment.payment_collection_id))
              ?.id ?? null,
          contract: (payment.data as { gateway_reference?: string } | null)?.gateway_reference ?? null,
          amount: lenderAmount(exact),
          medusa_amount: exact.toString(),
          currency_code: payment.currency_code,
          medusa_id: row.id,
        })
      }
    }
  }
  return unexplained
}

/**
 * Done voids whose payment Medusa still holds live: the lender voided the contract, but Medusa's
 * write of the cancelled payment failed (its cancellation step logs the error and goes on), so
 * Medusa would still let the payment be captured.
 */
export async function voidedPaymentsLeftLive(container: MedusaContainer): Promise<MoneyRecordRow[]> {
  const voids = (await pluginRecords(container).listPayBrightMoneyRecords({
    kind: "void",
    state: "done",
    payment_id: { $ne: null },
  } as never)) as unknown as MoneyRecordRow[]
  if (voids.length === 0) return []
  const live = new Set(
    (
      await container
        .resolve(Modules.PAYMENT)
        .listPayments({ id: [...new Set(voids.map((row) => row.payment_id!))], canceled_at: null } as never, {
          select: ["id"],
        })
    ).map((payment) => payment.id)
  )
  const seen = new Set<string>()
  return voids.filter((row) => live.has(row.payment_id!) && !seen.has(row.payment_id!) && seen.add(row.payment_id!))
}
