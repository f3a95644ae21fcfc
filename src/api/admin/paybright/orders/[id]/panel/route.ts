import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { orderPanel } from "../../../../../../views/order-panel"
import type { PayBrightOrderPanelResponse } from "../../../../../../lib/admin-types"

/** GET /admin/paybright/orders/:id/panel: the order page's PayBright panel (null when not PayBright). */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<PayBrightOrderPanelResponse>) => {
  res.setHeader("Cache-Control", "no-store")
  res.json({ panel: await orderPanel(req.scope, req.params.id) })
}
