import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cancelVoidedOrphanPayments } from "../../lib/void-contract"
import { messageOf } from "../../lib/texts/log-text"

/**
 * After an orphan's void, with the cart's lock given back: Medusa's payments still live on the
 * contract are cancelled (cancelVoidedOrphanPayments). Never fails: the contract is voided whatever
 * Medusa answers, and a payment left live is on a session no completion takes, beside an order
 * that is not placed on it.
 */
export const cancelVoidedOrphanPaymentsStep = createStep(
  "paybright-cancel-voided-orphan-payments-step",
  async (input: { contract: string | null | undefined }, { container }) => {
    if (!input.contract) return new StepResponse([] as string[])
    try {
      return new StepResponse(await cancelVoidedOrphanPayments(container, input.contract))
    } catch (error) {
      container
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .warn(
          `PayBright: contract ${input.contract} is voided, but Medusa did not cancel its payment (${messageOf(error)})`
        )
      return new StepResponse([] as string[])
    }
  }
)
