import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { voidedPaymentsLeftLive } from "../../lib/reconciliation"
import { concludeVoid } from "../../lib/void-contract"

export const cancelVoidedPaymentsStepId = "paybright-cancel-voided-payments-step"

/**
 * A contract the lender voided whose payment Medusa still holds live: Medusa cancels it (the
 * provider finds the void done and calls no one), so nothing is captured on a voided contract. A
 * payment Medusa refuses to cancel is logged and left to the next run.
 *
 * No compensation: the contract is voided at the lender; a payment put back live could be captured on it.
 */
export const cancelVoidedPaymentsStep = createStep(
  cancelVoidedPaymentsStepId,
  async (_: Record<string, never>, { container }) => {
    const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    const cancelled: string[] = []
    for (const record of await voidedPaymentsLeftLive(container)) {
      try {
        await concludeVoid(container, record)
        cancelled.push(record.payment_id!)
      } catch (error) {
        logger.error(
          `PayBright: contract ${record.contract} was voided at PayBright, but Medusa still holds payment ${record.payment_id} live and refused to cancel it: ${(error as Error).message}`
        )
      }
    }
    if (cancelled.length > 0) {
      logger.warn(
        `PayBright: cancelled in Medusa ${cancelled.length} payment(s) whose contract PayBright had already voided: ${cancelled.join(", ")}`
      )
    }
    return new StepResponse(cancelled)
  }
)
