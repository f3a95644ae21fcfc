import { authorizePaymentSessionStep, createPaymentSessionStep } from "@medusajs/core-flows"
import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { giveLock, takeLock } from "../../locks/take-lock"
import { planCarryStep } from "../steps/plan-carry"

export type CarryContractInput = { order_id: string }

/**
 * After Medusa changed an order (a return, an exchange, a claim, an order edit) and replaced its
 * authorized collection with a new one for what the order owes: the order's PayBright contract
 * is carried into the new collection. Under the order's carry lock, the plan is read; a PayBright
 * session is opened in that collection (or the one an earlier attempt opened is taken up) for what
 * the order owes, up to what the contract still covers, and authorized, which the provider does
 * only on the same plan (src/approvals/carried-contract.ts). Authorizing is the last step: a
 * failure before it deletes the session it opened, and nothing after it can undo the payment.
 * Nothing happens when the contract is held by a live payment, fully captured, or the order has
 * no collection waiting.
 */
export const carryContractWorkflow = createWorkflow(
  "paybright-carry-contract-workflow",
  (input: CarryContractInput) => {
    const key = transform({ input }, ({ input }) => `paybright-carry:${input.order_id}`)
    const owner = takeLock(key)
    const plan = planCarryStep({ order_id: input.order_id })
    const opened = when({ plan }, ({ plan }) => plan.carry && !plan.session_id).then(() =>
      createPaymentSessionStep(
        transform({ plan }, ({ plan }) => {
          if (!plan.carry) throw new Error("unreachable: no carry planned")
          return {
            payment_collection_id: plan.collection.id,
            provider_id: plan.from.provider_id,
            currency_code: plan.collection.currency_code,
            amount: plan.amount,
            data: { carried_contract: plan.from.data.gateway_reference },
          }
        })
      )
    )
    const payment = when({ plan }, ({ plan }) => plan.carry).then(() =>
      authorizePaymentSessionStep(
        transform({ plan, opened }, ({ plan, opened }) => ({
          id: (plan.carry && plan.session_id) || opened!.id,
          context: {},
        }))
      )
    )
    giveLock(key, owner)
    return new WorkflowResponse({ plan, payment_id: transform({ payment }, ({ payment }) => payment?.id ?? null) })
  }
)
