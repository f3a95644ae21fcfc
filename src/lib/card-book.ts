import type { MoneyState } from "../modules/paybright/money-record-types"
import { pluginRecords, recordsWriter } from "./plugin-records"
import type { NewCardMovement } from "../modules/paybright/records"
import { lenderAmount } from "./lender-cents"
import { totalOf } from "./totals"

/** A charge on the virtual card, with what has gone back to it. */
export type CardCharge = { processorId: string; amount: string; refunded: string }

type Row = {
  id: string
  kind: "charge" | "refund"
  processor_id: string | null
  charge_id: string | null
  amount: unknown
  medusa_id: string
  state: MoneyState
}

/**
 * The virtual card's movements at the merchant's processor, one row each, in the plugin's table.
 * Callers hold the payment's lock (the capture workflows, the admin guards), so reading the
 * charges and writing a refund's parts never interleave with another movement of the payment.
 */
export const cardBook = {
  /** The charge already made for a Medusa capture, if any. */
  async chargeFor(medusaId: string): Promise<string | undefined> {
    const rows = (await pluginRecords().listPayBrightCardTransactions({
      medusa_id: medusaId,
      kind: "charge",
      state: "done",
    })) as unknown as Row[]
    return rows[0]?.processor_id ?? undefined
  },

  /** Done charges of a payment, oldest first, each with the refunds done on it. */
  async charges(paymentId: string): Promise<CardCharge[]> {
    const rows = (await pluginRecords().listPayBrightCardTransactions(
      { payment_id: paymentId, state: "done" },
      { order: { created_at: "ASC" } }
    )) as unknown as Row[]
    return rows
      .filter((row) => row.kind === "charge" && row.processor_id)
      .map((charge) => ({
        processorId: charge.processor_id!,
        amount: lenderAmount(charge.amount as never),
        refunded: lenderAmount(
          totalOf(rows.filter((row) => row.kind === "refund" && row.charge_id === charge.processor_id))
        ),
      }))
  },

  /** Writes a movement as pending before the processor is called. */
  async open(row: NewCardMovement): Promise<string> {
    return recordsWriter().openCardMovement(row)
  },

  async conclude(id: string, state: Exclude<MoneyState, "pending">, processorId?: string): Promise<void> {
    await recordsWriter().concludeCardMovement(id, state, processorId)
  },
}

export type CardBook = typeof cardBook
