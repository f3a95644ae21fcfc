import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cartOfCollection } from "../../lib/find-checkout"

/** Medusa hands steps its container under a narrower type than the helpers take. */
const scopeOf = (container: unknown) => container as MedusaContainer

export const readCartOfCollectionStepId = "paybright-read-cart-of-collection-step"
export type ReadCartOfCollectionInput = { payment_collection_id: string }
/** The cart of a payment collection and what it now asks for (a result whose session is gone). */
export const readCartOfCollectionStep = createStep(
  readCartOfCollectionStepId,
  async (input: ReadCartOfCollectionInput, { container }) => {
    const { cartId, amount, countryCode } = await cartOfCollection(scopeOf(container), input.payment_collection_id)
    return new StepResponse({ cartId, amount: amount as never, countryCode })
  }
)
