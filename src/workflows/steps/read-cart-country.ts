import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { countryOfCart } from "../../lib/find-checkout"

/** Medusa hands steps its container under a narrower type than the helpers take. */
const scopeOf = (container: unknown) => container as MedusaContainer

export const readCartCountryStepId = "paybright-read-cart-country-step"
export type ReadCartCountryInput = { cart_id: string | null }
/** The cart's country, for the shopper's way back to the storefront. */
export const readCartCountryStep = createStep(
  readCartCountryStepId,
  async (input: ReadCartCountryInput, { container }) => {
    return new StepResponse(input.cart_id ? await countryOfCart(scopeOf(container), input.cart_id) : undefined)
  }
)
