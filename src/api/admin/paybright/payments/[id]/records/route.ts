import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { moneyRecordsOfPayment } from "../../../../../../views/money-records"

/** GET /admin/paybright/payments/:id/records: the payment's captures and refunds, newest first. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  res.json({ records: await moneyRecordsOfPayment(req.scope, { id: req.params.id }) })
}
