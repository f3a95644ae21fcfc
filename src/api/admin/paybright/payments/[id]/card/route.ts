import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cardPayment, maskCard, retrieveVirtualCard } from "../../../../../../lib/card-access"

/** GET /admin/paybright/payments/:id/card: the payment's virtual card, masked. */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const card = await retrieveVirtualCard(await cardPayment(req.scope, req.params.id))
  res.setHeader("Cache-Control", "no-store")
  res.json({ card: maskCard(card) })
}
