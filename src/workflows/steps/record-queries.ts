import { MedusaError } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { blockedByDoubtMessage } from "../../messages/merchant-messages"
import { PAYBRIGHT_MODULE } from "../../modules/paybright"
import type PayBrightModuleService from "../../modules/paybright/service"
import { twoDecimals } from "../../money/money-attempt"
import type { MoneyRecordRow } from "../../money/money-record-types"

export function recordsOf(container: MedusaContainer): PayBrightModuleService {
  return container.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
}

export async function findRecord(container: MedusaContainer, id: string): Promise<MoneyRecordRow> {
  const [record] = (await recordsOf(container).listPayBrightMoneyRecords({ id })) as unknown as MoneyRecordRow[]
  if (!record) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `No PayBright record ${id}`)
  }
  return record
}

/** The in-doubt record of a payment, if any: while it stands nothing else moves. */
export async function doubtOf(container: MedusaContainer, paymentId: string): Promise<MoneyRecordRow | undefined> {
  const [doubt] = (await recordsOf(container).listPayBrightMoneyRecords(
    { payment_id: paymentId, state: "in_doubt" },
    { take: 1 }
  )) as unknown as MoneyRecordRow[]
  return doubt
}

export function blockedMessage(doubt: MoneyRecordRow): string {
  return blockedByDoubtMessage({
    movement: doubt.kind,
    amount: twoDecimals(doubt.amount),
    currency: doubt.currency_code,
    contract: doubt.contract ?? "?",
  })
}
