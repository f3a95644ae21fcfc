import type PayBrightModuleService from "../modules/paybright/service"
import { blockedByDoubtMessage } from "../messages/merchant-messages"
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
