import type { BigNumberInput } from "@medusajs/framework/types"
import { MathBN } from "@medusajs/framework/utils"
import { toCents } from "./lender-cents"

/** A capture or refund as Medusa's query answers it: `raw_amount`, where selected, keeps every digit. */
export type MedusaAmountRow = { amount: unknown; raw_amount?: unknown }

/** One of Medusa's amounts with every digit it keeps. */
export function exactAmount(row: MedusaAmountRow): BigNumberInput {
  return (row.raw_amount ?? row.amount) as BigNumberInput
}

/**
 * What movements add up to, exactly: a payment's captures ("captured so far") or refunds in
 * Medusa, or a card's rows. The one sum of amounts in the plugin.
 */
export function totalOf(rows: MedusaAmountRow[] | null | undefined): ReturnType<typeof MathBN.convert> {
  return (rows ?? []).reduce(
    (total: ReturnType<typeof MathBN.convert>, row) => MathBN.add(total, exactAmount(row)),
    MathBN.convert(0)
  )
}

/**
 * What a payment may still capture for its order: what remains authorized on it, never more than
 * the order owes now (Medusa's `summary.pending_difference`), which an order edit or a return
 * lowers without touching the payment when nothing is left pending. Unknown `owed` caps nothing.
 */
export function stillCapturable(
  payment: { amount: BigNumberInput; captured: BigNumberInput },
  owed: BigNumberInput | undefined
): ReturnType<typeof MathBN.convert> {
  const remaining = MathBN.sub(payment.amount, payment.captured)
  const capped = owed === undefined || owed === null ? remaining : MathBN.min(remaining, owed)
  return MathBN.max(capped, 0)
}

/**
 * The order's fields `owedBy` reads, for Medusa's query. `total` is among them for its effect: only
 * when an order's totals are asked for does Medusa's order module work out `summary.pending_difference`
 * from them, leaving out what a requested return or exchange brings back, as its admin shows it; the
 * summary as stored still counts those items as owed.
 */
export const OWED_FIELDS = ["status", "currency_code", "summary", "total"]

/** Whether a capture asks more than a payment may still capture, in the lender's cents (what it would move). */
export function capturesTooMuch(asked: BigNumberInput, capturable: BigNumberInput): boolean {
  return toCents(asked) > toCents(capturable)
}

/**
 * What an order still owes, exactly: its `summary` as Medusa's query answers it when read with
 * OWED_FIELDS (the order's `total` beside it says it was), and nothing once it is cancelled (Medusa
 * leaves a cancelled order's summary as it was, its total still pending).
 */
export function owedBy(
  order: { status?: string | null; summary?: Record<string, unknown> | null; total: unknown } | undefined
): BigNumberInput | undefined {
  if (order?.status === "canceled") return 0
  const summary = order?.summary
  return (summary?.raw_pending_difference ?? summary?.pending_difference) as BigNumberInput | undefined
}
