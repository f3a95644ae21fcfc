import { MedusaError, Modules, PaymentSessionStatus } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

export const AUTHORIZE_CARRIED_SESSION_STEP = "paybright-authorize-carried-session-step"

/**
 * Authorizes the session a contract is carried into (the provider decides, on carryPlan), and
 * answers the payment Medusa made of it. No compensation, unlike Medusa's own authorize step:
 * cancelling that payment would void a contract the order lives on, and a payment left authorized
 * is what the next carry finds (the contract held by a live payment) and does not repeat.
 */
export const authorizeCarriedSessionStep = createStep(
  AUTHORIZE_CARRIED_SESSION_STEP,
  async (input: { session_id: string }, { container }) => {
    const payments = container.resolve(Modules.PAYMENT)
    const payment = await payments.authorizePaymentSession(input.session_id, {})
    const session = await payments.retrievePaymentSession(input.session_id, { select: ["id", "status"] })
    if (session.status !== PaymentSessionStatus.AUTHORIZED || !payment) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `PayBright did not authorize the carried session ${input.session_id} (${session.status})`
      )
    }
    return new StepResponse({ payment_id: payment.id })
  }
)
