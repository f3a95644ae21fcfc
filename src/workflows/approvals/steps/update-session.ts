import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { PAYBRIGHT_MODULE } from "../../../modules/paybright/index"
import type PayBrightModuleService from "../../../modules/paybright/service"

export type SessionUpdate = { session_id: string; data: Record<string, unknown> }

/**
 * Hands the payment session a verified decline or pending result (or the withdrawal of an
 * approval) through the payment module, which passes it to the provider's updatePayment. A session
 * already authorized is left alone; an approval no longer open stops here.
 */
export const updatePayBrightSessionStep = createStep(
  "paybright-update-session-step",
  async (input: SessionUpdate & { approval_id?: string }, { container }) => {
    if (input.approval_id) {
      const approval = await (container.resolve(PAYBRIGHT_MODULE) as PayBrightModuleService).retrievePayBrightApproval(
        input.approval_id
      )
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
    if (!session || session.status === "authorized") {
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
