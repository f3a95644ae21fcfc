import type { PayBrightRecordsReader, PayBrightRecordsWriter } from "../modules/paybright/records"
import { MedusaError } from "@medusajs/framework/utils"
import { blockedByDoubtMessage, cancelBlockedMessage, ledgersPartedMessage } from "./merchant-messages"
import { lenderAmount } from "./lender-cents"
import type { Said } from "./texts/said"
import { MerchantError } from "./merchant-error"
import type { MoneyRecordRow } from "../modules/paybright/money-record-types"

/**
 * The in-doubt record of a payment, if any: while it stands, nothing else of the payment moves
 * (no capture, refund, retry or cancellation) until a person resolves it. The one check, used by
 * the provider's movements and by the plugin's workflows alike (the module service's
 * doubtOfPayment: a done record whose row is gone from `medusaRows` goes in doubt first).
 */
export async function doubtOf(
  records: PayBrightRecordsWriter,
  paymentId: string,
  medusaRows?: ReadonlySet<string>
): Promise<MoneyRecordRow | undefined> {
  return records.doubtOfPayment(paymentId, medusaRows, REMOVED_BY_MEDUSA)
}

/**
 * What the merchant reads of a claimed record whose Medusa row is gone: the ledgers parted (see
 * ledgersPartedMessage), for certain when it is done, maybe when its outcome was never written.
 */
export const REMOVED_BY_MEDUSA = {
  parted: (record: MoneyRecordRow) =>
    ledgersPartedMessage({
      movement: record.kind as "capture" | "refund",
      side: record.state === "done" ? "removed_by_medusa" : "outcome_lost_removed_by_medusa",
      amount: lenderAmount(record.amount as never),
      currency: record.currency_code,
      contract: record.contract ?? "?",
    }),
}

/** Puts a done record whose Medusa row is gone in doubt, with its event; answers the record as it is now. */
export async function putInDoubt(records: PayBrightRecordsWriter, record: MoneyRecordRow): Promise<MoneyRecordRow> {
  return records.putMoneyRecordInDoubt(record.id, {
    message: REMOVED_BY_MEDUSA.parted(record),
    reason: "removed_by_medusa",
  })
}

/** What the merchant reads when a movement is refused because `doubt` stands. */
export function blockedMessage(doubt: MoneyRecordRow, contract?: string | null): Said {
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
  records: PayBrightRecordsReader,
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
  return new MerchantError(
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
