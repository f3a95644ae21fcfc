import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { PAYBRIGHT_MODULE } from "../../../../../../modules/paybright"
import type PayBrightModuleService from "../../../../../../modules/paybright/service"

/** GET /admin/paybright/orders/:id/captures: the captures the plugin made or tried for an order. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const records = req.scope.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
  const captures = await records.listPayBrightCaptures({ order_id: req.params.id }, { order: { created_at: "ASC" } })
  res.json({ captures })
}
