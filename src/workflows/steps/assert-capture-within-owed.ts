import { ContainerRegistrationKeys, MathBN, MedusaError, Modules } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { orderOfCollection } from "../../lib/medusa-links"
import { captureAboveOwedMessage } from "../../lib/merchant-messages"
import { MerchantError } from "../../lib/merchant-error"
import { capturesTooMuch, OWED_FIELDS, owedBy, stillCapturable, totalOf, type MedusaAmountRow } from "../../lib/totals"
import { lenderAmount } from "../../lib/lender-cents"
import { isPayBright } from "../../storefront/provider"

export const ASSERT_CAPTURE_WITHIN_OWED_STEP = "paybright-assert-capture-within-owed-step"

/**
 * Refuses Medusa's own capture of a PayBright payment that asks more than the payment may still
 * capture for what its order owes now (stillCapturable): Medusa caps a capture by the payment
 * alone, and an order edit or a return lowers what the order owes without touching the payment.
 * Without an amount, Medusa captures what remains of the payment. A read: nothing to undo.
 */
export const assertCaptureWithinOwedStep = createStep(
  ASSERT_CAPTURE_WITHIN_OWED_STEP,
  async (input: { payment_id: string; amount?: BigNumberInput }, { container }) => {
    const [payment] = (await container.resolve(Modules.PAYMENT).listPayments(
      { id: input.payment_id },
      {
        select: ["id", "provider_id", "amount", "raw_amount", "currency_code", "payment_collection_id"],
        relations: ["captures"],
      }
    )) as unknown as {
      provider_id: string
      amount: BigNumberInput
      raw_amount?: BigNumberInput
      currency_code: string
      payment_collection_id: string
      captures?: MedusaAmountRow[]
    }[]
    if (!payment || !isPayBright(payment.provider_id)) return new StepResponse(true)
    const order = await orderOfCollection<{
      id: string
      status?: string
      summary?: Record<string, unknown>
      total: unknown
    }>(container.resolve(ContainerRegistrationKeys.QUERY), payment.payment_collection_id, OWED_FIELDS)
    const captured = totalOf(payment.captures)
    const authorized = payment.raw_amount ?? payment.amount
    const capturable = stillCapturable({ amount: authorized, captured }, owedBy(order))
    const asked = input.amount ?? MathBN.sub(authorized, captured)
    if (capturesTooMuch(asked, capturable)) {
      throw new MerchantError(
        MedusaError.Types.NOT_ALLOWED,
        captureAboveOwedMessage(lenderAmount(asked), lenderAmount(capturable), payment.currency_code.toUpperCase())
      )
    }
    return new StepResponse(true)
  }
)
