import { MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { pluginRecords } from "./plugin-records"
import type { MoneyRecordRow } from "../modules/paybright/money-record-types"

export async function findRecord(container: MedusaContainer, id: string): Promise<MoneyRecordRow> {
  const [record] = (await pluginRecords(container).listPayBrightMoneyRecords({ id })) as unknown as MoneyRecordRow[]
  if (!record) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `No PayBright record ${id}`)
  }
  return record
}

/** The Captures and Refunds Medusa has on a payment now (see doubtOf: a done record must find its own among them). */
export async function medusaRowsOf(container: MedusaContainer, paymentId: string): Promise<Set<string>> {
  const [payment] = await container
    .resolve(Modules.PAYMENT)
    .listPayments({ id: paymentId }, { select: ["id"], relations: ["captures", "refunds"] })
  return new Set([...(payment?.captures ?? []), ...(payment?.refunds ?? [])].map((row) => row.id))
}
