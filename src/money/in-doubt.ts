import type PayBrightModuleService from "../modules/paybright/service"
import { MedusaError } from "@medusajs/framework/utils"
import { blockedByDoubtMessage, cancelBlockedMessage } from "../messages/merchant-messages"
import { lenderAmount } from "./lender-cents"
import type { MoneyRecordRow } from "./money-record-types"

/**
 * The in-doubt record of a payment, if any: while it stands, nothing else of the payment moves
 * (no capture, refund, retry or cancellation) until a person resolves it. The one check, used by
 * the provider's movements and by the plugin's workflows alike.
 */
export async function doubtOf(records: PayBrightModuleService, paymentId: string): Promise<MoneyRecordRow | undefined> {
  const [doubt] = (await records.listPayBrightMoneyRecords(
    { payment_id: paymentId, state: "in_doubt" },
    { take: 1 }
  )) as unknown as MoneyRecordRow[]
  return doubt
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
