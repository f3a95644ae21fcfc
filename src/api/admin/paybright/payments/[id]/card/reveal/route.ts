import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MathBN, MedusaError } from "@medusajs/framework/utils"
import type { Logger } from "@medusajs/framework/types"
import { maskCard, retrieveVirtualCard } from "../../../../../../../virtual-card/card-access"
import type { PayBrightRevealedCard } from "../../../../../../../types/admin"
import { recordPayBrightEventWorkflow } from "../../../../../../../workflows/record-paybright-event"

/**
 * POST /admin/paybright/payments/:id/card/reveal: the full card, for a person to charge it on the
 * store's own terminal. Only with the manual card processor, for a payment not cancelled that
 * still has something to capture; every reveal is an event-log row (who, when, last four digits,
 * never the card), and nothing caches the answer.
 */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<{ card: PayBrightRevealedCard }>) => {
  const { card, options, uncaptured, cancelled, payment } = await retrieveVirtualCard(req.scope, req.params.id)
  if (options.cardProcessor?.type !== "manual") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "The card is charged automatically by the configured card processor; it can only be revealed with the manual processor"
    )
  }
  if (cancelled || MathBN.lte(uncaptured, 0)) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      cancelled
        ? "This payment is cancelled: its card is not revealed any more"
        : "Everything authorized is captured: there is nothing left to charge on this card"
    )
  }
  await recordPayBrightEventWorkflow(req.scope).run({
    input: {
      kind: "card.revealed",
      actor: req.auth_context.actor_id,
      payment_id: req.params.id,
      order_id: payment.order_id,
      contract: payment.contract,
      message: `Virtual card ending ${card.pan.slice(-4)} revealed to charge ${uncaptured} ${payment.currency_code.toUpperCase()} on the store's terminal.`,
      details: { last4: card.pan.slice(-4), uncaptured },
    },
  })
  req.scope
    .resolve<Logger>("logger")
    .info(
      `PayBright: virtual card ending ${card.pan.slice(-4)} of payment ${req.params.id} revealed to user ${req.auth_context.actor_id}`
    )
  res.setHeader("Cache-Control", "no-store")
  res.setHeader("Pragma", "no-cache")
  res.json({ card: { ...maskCard(card), pan: card.pan, cvv: card.cvv } })
}
