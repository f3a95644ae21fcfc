import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { paymentsOfOrder } from "../../lib/find-checkout"

/** Medusa hands steps its container under a narrower type than the helpers take. */
const scopeOf = (container: unknown) => container as MedusaContainer

export const readOrderPaymentsStepId = "paybright-read-order-payments-step"
export type ReadOrderPaymentsInput = { order_id: string; payment_collection_id: string }
/** The live payments of an order's payment collection, with their contracts; none if the order is gone. */
export const readOrderPaymentsStep = createStep(
  readOrderPaymentsStepId,
  async (input: ReadOrderPaymentsInput, { container }) => {
    const payments = await paymentsOfOrder(scopeOf(container), {
      orderId: input.order_id,
      paymentCollectionId: input.payment_collection_id,
    })
    return new StepResponse(payments.map(({ contract }) => ({ contract })))
  }
)
