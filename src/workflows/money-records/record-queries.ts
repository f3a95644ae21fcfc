import { MedusaError } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PAYBRIGHT_MODULE } from "../../modules/paybright"
import type PayBrightModuleService from "../../modules/paybright/service"
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
