import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MathBN, MedusaError } from "@medusajs/framework/utils"
import type { Logger } from "@medusajs/framework/types"
import { cardPayment, maskCard, retrieveVirtualCard, revealFacts } from "../../../../../../../lib/card-access"
import type { PayBrightRevealedCard } from "../../../../../../../lib/admin-types"
import { recordPayBrightEventWorkflow } from "../../../../../../../workflows/record-paybright-event"
import { money, said } from "../../../../../../../lib/texts/said"
import { MerchantError } from "../../../../../../../lib/merchant-error"
import { answeringSentences } from "../../../../merchant-errors"

/**
 * POST /admin/paybright/payments/:id/card/reveal: the full card, for a person to charge it on the
 * store's own terminal (needs the `paybright_card:reveal` policy). Only for a payment authorized
 * under the manual card processor (a payment an automatic processor charges is never revealed,
 * whatever the settings say now), not cancelled, with something left to capture; decided before
 * the card is asked of the lender. Every reveal is an event-log row (who, when, last four digits,
 * never the card), and nothing caches the answer.
 */
export const POST = answeringSentences(
  async (req: AuthenticatedMedusaRequest, res: MedusaResponse<{ card: PayBrightRevealedCard }>) => {
    const found = await cardPayment(req.scope, req.params.id)
    const { payment } = found
    if (found.processor !== "manual") {
      throw new MerchantError(
        MedusaError.Types.NOT_ALLOWED,
        found.processor ? said("card_charged_by", { processor: found.processor }) : said("card_charged_by_none")
      )
    }
    const { uncaptured, cancelled, order_id } = await revealFacts(req.scope, found)
    if (cancelled || MathBN.lte(uncaptured, 0)) {
      throw new MerchantError(
        MedusaError.Types.NOT_ALLOWED,
        said(cancelled ? "card_payment_cancelled" : "card_nothing_left")
      )
    }
    const card = await retrieveVirtualCard(found)
    await recordPayBrightEventWorkflow(req.scope).run({
      input: {
        kind: "card.revealed",
        actor: req.auth_context.actor_id,
        payment_id: req.params.id,
        order_id,
        contract: payment.contract,
        message: said("card_revealed", { last4: card.pan.slice(-4), amount: money(uncaptured, payment.currency_code) }),
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
)
