import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { PAYBRIGHT_MODULE } from "../../../../../../modules/paybright"
import type PayBrightModuleService from "../../../../../../modules/paybright/service"
import type { MoneyRecordRow } from "../../../../../../records/money-record-types"
import { toMoneyRecord } from "../../../../../../records/money-record-view"

/** GET /admin/paybright/payments/:id/records: the payment's captures and refunds, newest first. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const records = req.scope.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
  const rows = (await records.listPayBrightMoneyRecords(
    { payment_id: req.params.id },
    { order: { created_at: "DESC" } }
  )) as unknown as MoneyRecordRow[]
  res.json({ records: rows.map(toMoneyRecord) })
}
