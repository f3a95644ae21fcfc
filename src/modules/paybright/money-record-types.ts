import type { BigNumberInput } from "@medusajs/framework/types"
import { MathBN } from "@medusajs/framework/utils"
import type { MoneyOutcome } from "../../lenders/errors"
import type { Said } from "../../lib/texts/said"

export type MoneyKind = "capture" | "refund" | "void"
export type MoneyTrigger = "shipment" | "fulfillment" | "admin" | "order_canceled" | "orphan" | "retry"
export type MoneyState = "pending" | MoneyOutcome

/** A row of paybright_money_record as the module service answers it. */
export type MoneyRecordRow = {
  id: string
  kind: MoneyKind
  trigger: MoneyTrigger
  idempotency_key: string | null
  payment_id: string | null
  order_id: string | null
  fulfillment_id: string | null
  contract: string | null
  /** Whole cents moved at the lender. */
  amount: unknown
  raw_amount?: unknown
  /** Medusa's exact amount, when known. */
  medusa_amount: unknown
  raw_medusa_amount?: unknown
  currency_code: string
  state: MoneyState
  reference: string | null
  medusa_id: string | null
  message: string | null
  said: Said | null
  lender_evidence: Record<string, string> | null
  resolved_by: string | null
  resolved_at: Date | string | null
  retry_of: string | null
  created_at: Date | string
}

/** Two of Medusa's amounts are the same, as far as a JSON number carries one (Medusa's routes take numbers). */
export function sameMedusaAmount(a: BigNumberInput, b: BigNumberInput): boolean {
  return MathBN.lte(MathBN.abs(MathBN.sub(a, b)), JSON_NUMBER_SLACK)
}
const JSON_NUMBER_SLACK = "0.000000001"

/** Medusa's exact amount of a record: recorded beside the lender's cents, or the same when it was not. */
export function medusaAmountOf(
  record: Pick<MoneyRecordRow, "amount" | "raw_amount" | "medusa_amount" | "raw_medusa_amount">
) {
  return MathBN.convert(
    (record.raw_medusa_amount ?? record.medusa_amount ?? record.raw_amount ?? record.amount) as never
  )
}
