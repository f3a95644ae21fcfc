import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { PaymentCollectionStatus } from "@medusajs/framework/utils"
import { orderCollections } from "../../lib/order-collections"
import { owedAuthorizations } from "../../lib/collection-authorization"

export const authorizePlacedCollectionsStepId = "paybright-authorize-placed-collections-step"

export type AuthorizePlacedCollectionsInput = { order_id: string }

/**
 * Writes, through Medusa's payment module, the status each collection of a placed order is owed
 * (lib/collection-authorization.ts). Compensation puts back the status each had.
 */
export const authorizePlacedCollectionsStep = createStep(
  authorizePlacedCollectionsStepId,
  async (input: AuthorizePlacedCollectionsInput, { container }) => {
    const collections = await orderCollections(container.resolve(ContainerRegistrationKeys.QUERY), input.order_id)
    const payments = container.resolve(Modules.PAYMENT)
    const owed = owedAuthorizations(collections)
    for (const { collection_id, status } of owed) await payments.updatePaymentCollections(collection_id, { status })
    return new StepResponse(owed, owed)
  },
  async (written, { container }) => {
    const payments = container.resolve(Modules.PAYMENT)
    for (const { collection_id, from } of written ?? []) {
      await payments.updatePaymentCollections(collection_id, { status: from as PaymentCollectionStatus })
    }
  }
)
