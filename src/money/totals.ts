import type { BigNumberInput } from "@medusajs/framework/types"
import { MathBN } from "@medusajs/framework/utils"

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
