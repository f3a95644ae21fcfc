import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import type { Logger } from "@medusajs/framework/types"
import { maskCard, retrieveVirtualCard } from "../../../../../../../virtual-card/card-access"

/**
 * POST /admin/paybright/payments/:id/card/reveal: the full card, for a person to charge it on the
 * store's own terminal. Only with the manual card processor; every reveal is logged with who and
 * when (never with the card), and nothing caches the answer.
 */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const { card, options } = await retrieveVirtualCard(req.scope, req.params.id)
  if (options.cardProcessor?.type !== "manual") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "The card is charged automatically by the configured card processor; it can only be revealed with the manual processor"
    )
  }
  const logger = req.scope.resolve("logger") as Logger
  logger.info(
    `PayBright: virtual card ending ${card.pan.slice(-4)} of payment ${req.params.id} revealed to ${req.auth_context.actor_type} ${req.auth_context.actor_id} at ${new Date().toISOString()}`
  )
  res.setHeader("Cache-Control", "no-store")
  res.setHeader("Pragma", "no-cache")
  res.json({ card: { ...maskCard(card), pan: card.pan, cvv: card.cvv } })
}
