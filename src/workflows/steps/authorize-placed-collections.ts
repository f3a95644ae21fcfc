import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { PaymentCollectionStatus } from "@medusajs/framework/utils"
import { orderCollections } from "../../lib/order-collections"
import { owedAuthorizations } from "../../lib/collection-authorization"

export const authorizePlacedCollectionsStepId = "paybright-authorize-placed-collections-step"

export type AuthorizePlacedCollectionsInput = { order_id: string }

type Written = { collection_id: string; before: string }

/**
 * Writes, through Medusa's payment module, the status each collection of a placed order is owed
 * (lib/collection-authorization.ts). Compensation puts back the status each had.
 */
export const authorizePlacedCollectionsStep = createStep(
  authorizePlacedCollectionsStepId,
  async (input: AuthorizePlacedCollectionsInput, { container }) => {
    const collections = await orderCollections(container.resolve(ContainerRegistrationKeys.QUERY), input.order_id)
    const payments = container.resolve(Modules.PAYMENT)
    const written: Written[] = []
    for (const owed of owedAuthorizations(collections)) {
      const before = collections.find((collection) => collection.id === owed.collection_id)!.status
      await payments.updatePaymentCollections(owed.collection_id, { status: owed.status })
      written.push({ collection_id: owed.collection_id, before })
    }
    return new StepResponse(written, written)
  },
  async (written, { container }) => {
    const payments = container.resolve(Modules.PAYMENT)
    for (const { collection_id, before } of written ?? []) {
      await payments.updatePaymentCollections(collection_id, { status: before as PaymentCollectionStatus })
    }
  }
)
