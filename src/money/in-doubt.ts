import type PayBrightModuleService from "../modules/paybright/service"
import { MedusaError } from "@medusajs/framework/utils"
import { blockedByDoubtMessage, cancelBlockedMessage, ledgersPartedMessage } from "../messages/merchant-messages"
import { lenderAmount } from "./lender-cents"
import type { MoneyRecordRow } from "../modules/paybright/money-record-types"

/**
 * The in-doubt record of a payment, if any: while it stands, nothing else of the payment moves
 * (no capture, refund, retry or cancellation) until a person resolves it. The one check, used by
 * the provider's movements and by the plugin's workflows alike. Given the Captures and Refunds
 * Medusa has on the payment now (`medusaRows`), a done record whose row Medusa removed (it does
 * when updating the payment fails after the provider's success) is put in doubt first: the lender
 * moved money Medusa no longer counts, and a retry would move it twice.
 */
export async function doubtOf(
  records: PayBrightModuleService,
  paymentId: string,
  medusaRows?: ReadonlySet<string>
): Promise<MoneyRecordRow | undefined> {
  const rows = (await records.listPayBrightMoneyRecords(
    { payment_id: paymentId, state: medusaRows ? ["in_doubt", "done"] : "in_doubt" },
    { order: { created_at: "ASC" } }
  )) as unknown as MoneyRecordRow[]
  const doubt = rows.find((row) => row.state === "in_doubt")
  if (doubt || !medusaRows) return doubt
  const removed = rows.find(
    (row) => (row.kind === "capture" || row.kind === "refund") && row.medusa_id && !medusaRows.has(row.medusa_id)
  )
  return removed ? putInDoubt(records, removed, "removed_by_medusa") : undefined
}

/**
 * Puts a record in doubt because the ledgers parted for a reason of Medusa's own (see
 * ledgersPartedMessage), with its event; answers the record as it is now.
 */
export async function putInDoubt(
  records: PayBrightModuleService,
  record: MoneyRecordRow,
  side: "removed_by_medusa" | "unexplained_in_medusa"
): Promise<MoneyRecordRow> {
  const message = ledgersPartedMessage({
    movement: record.kind as "capture" | "refund",
    side,
    amount: lenderAmount(record.amount as never),
    currency: record.currency_code,
    contract: record.contract ?? "?",
  })
  return records.putMoneyRecordInDoubt(record.id, { message, reason: side })
}

/** What the merchant reads when a movement is refused because `doubt` stands. */
export function blockedMessage(doubt: MoneyRecordRow, contract?: string | null): string {
  return blockedByDoubtMessage({
    movement: doubt.kind,
    amount: lenderAmount(doubt.amount as never),
    currency: doubt.currency_code,
    contract: doubt.contract ?? contract ?? "?",
  })
}

/**
 * Records of movements running or in doubt: in doubt, or pending with Medusa's id on them (a
 * pending record nobody claimed yet was only written ahead of its movement, which has not started).
 */
const OPEN_MOVEMENT = { $or: [{ state: "in_doubt" }, { state: "pending", medusa_id: { $ne: null } }] }

/**
 * The oldest movement of these payments running or in doubt, if any: while one stands, the order
 * is not cancelled and no payment of it is cancelled. The one check, for Medusa's cancellation
 * through the provider and for the plugin's guard in front of it.
 */
export async function openMovementOf(
  records: PayBrightModuleService,
  paymentIds: string | string[]
): Promise<MoneyRecordRow | undefined> {
  const [record] = (await records.listPayBrightMoneyRecords({ payment_id: paymentIds, ...OPEN_MOVEMENT } as never, {
    take: 1,
    order: { created_at: "ASC" },
  })) as unknown as MoneyRecordRow[]
  return record
}

/** The refusal of a cancellation while `open` stands, naming the record and what to do. */
export function cancellationBlockedBy(open: MoneyRecordRow, contract?: string | null): MedusaError {
  return new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    cancelBlockedMessage({
      id: open.id,
      movement: open.kind,
      state: open.state as "pending" | "in_doubt",
      amount: lenderAmount(open.amount as never),
      currency: open.currency_code,
      contract: open.contract ?? contract ?? "?",
    })
  )
}
