import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { pluginRecords } from "../../lib/plugin-records"

export type SessionUpdate = {
  session_id: string
  data: Record<string, unknown>
  /**
   * The withdrawal of an orphaned approval: the contract whose authorized payment the session may
   * hold (Medusa kept it when it undid a completion, or cancelled it since).
   */
  withdrawn_contract?: string
}

/**
 * Hands the payment session a verified decline or pending result (or the withdrawal of an
 * approval) through the payment module, which passes it to the provider's updatePayment. A session
 * already authorized is left alone, unless an orphan is withdrawn from it: Medusa's completion
 * hands an authorized session's payment to a new order without asking the provider (cancelled or
 * not), so such a session ends in error, which no completion takes. An approval no longer open
 * stops here.
 */
export const updatePayBrightSessionStep = createStep(
  "paybright-update-session-step",
  async (input: SessionUpdate & { approval_id?: string }, { container }) => {
    if (input.approval_id) {
      const approval = await pluginRecords(container).retrievePayBrightApproval(input.approval_id)
      if (approval.state !== "approved") {
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `PayBright contract ${approval.contract} is ${approval.state}`
        )
      }
    }
    const payments = container.resolve(Modules.PAYMENT)
    const [session] = await payments.listPaymentSessions(
      { id: input.session_id },
      { select: ["id", "amount", "currency_code", "data", "status"] }
    )
    const withdrawable =
      session?.status === "authorized" && input.withdrawn_contract
        ? (await payments.listPayments({ payment_session_id: session.id }, { select: ["id", "data"] })).some(
            (payment) => payment.data?.gateway_reference === input.withdrawn_contract
          )
        : session?.status !== "authorized"
    if (!session || !withdrawable) {
      return new StepResponse({ id: input.session_id, updated: false })
    }
    await payments.updatePaymentSession({
      id: session.id,
      data: { ...session.data, ...input.data },
      amount: session.amount as never,
      currency_code: session.currency_code,
    })
    return new StepResponse({ id: session.id, updated: true })
  }
)
