import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { pluginRecords } from "../../../../../../lib/plugin-records"
import type { MoneyRecordRow } from "../../../../../../modules/paybright/money-record-types"
import { toMoneyRecord } from "../../../../../../lib/money-record-view"

/** GET /admin/paybright/orders/:id/captures: the order's capture records, oldest first. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const records = pluginRecords(req.scope)
  const rows = (await records.listPayBrightMoneyRecords(
    { order_id: req.params.id, kind: "capture" },
    { order: { created_at: "ASC" } }
  )) as unknown as MoneyRecordRow[]
  res.json({ captures: rows.map((row) => ({ ...toMoneyRecord(row), fulfillment_id: row.fulfillment_id })) })
}
