import { createPaymentSessionStep, deletePaymentSessionsStep } from "@medusajs/core-flows"
import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { giveLock, takeLock } from "./take-lock"
import { contractLockKey } from "../lib/payment-lock"
import { planCarryStep } from "./steps/plan-carry"
import { authorizeCarriedSessionStep } from "./steps/authorize-carried-session"
import { recordPayBrightEventsStep } from "./steps/record-paybright-events"
import { carriedContractMessage } from "../lib/merchant-messages"
import { lenderAmount } from "../lib/lender-cents"
import type { NewEvent } from "../modules/paybright/records"

export type CarryContractInput = { order_id: string }

/**
 * After Medusa changed an order (a return, an exchange, a claim, an order edit) and replaced its
 * authorized collection with a new one for what the order owes: the order's PayBright contract
 * is carried into the new collection. Under the order's contract lock, the plan is read; any other
 * PayBright session waiting there is removed; the carry's session is opened in that collection (or
 * the one an earlier attempt opened for this amount is taken up) for what
 * the order owes, up to what the contract still covers, and authorized, which the provider does
 * only on the same plan (src/lib/carried-contract.ts); the order's timeline says so, and
 * what the contract cannot cover. A failure before the authorization deletes the session it
 * opened; the authorization itself is never undone (see authorizeCarriedSessionStep).
 * Nothing happens when the order is cancelled, the contract is held by a live payment or fully
 * captured, or the order has no collection waiting.
 */
export const carryContractWorkflow = createWorkflow(
  "paybright-carry-contract-workflow",
  (input: CarryContractInput) => {
    const key = transform({ input }, ({ input }) => contractLockKey(input.order_id))
    const owner = takeLock(key)
    const plan = planCarryStep({ order_id: input.order_id })
    // Another PayBright session in the collection is no carry's: a shopper's, or one an earlier carry
    // opened for an amount the order no longer owes. Medusa's step opens it again if a later step fails.
    when({ plan }, ({ plan }) => plan.carry && plan.stray_session_ids.length > 0).then(() =>
      deletePaymentSessionsStep(transform({ plan }, ({ plan }) => ({ ids: plan.carry ? plan.stray_session_ids : [] })))
    )
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
    // Before the authorization, so that a failure to authorize withdraws it.
    when({ plan }, ({ plan }) => plan.carry).then(() =>
      recordPayBrightEventsStep(
        transform({ plan, input }, ({ plan, input }): NewEvent[] => {
          if (!plan.carry) return []
          const facts = {
            contract: plan.from.data.gateway_reference,
            amount: lenderAmount(plan.amount),
            uncovered: lenderAmount(plan.uncovered),
            currency: plan.collection.currency_code,
          }
          return [
            {
              kind: "contract.carried",
              actor: "system",
              order_id: input.order_id,
              payment_id: plan.from.id,
              contract: facts.contract,
              message: carriedContractMessage(facts),
              details: { ...facts, collection_id: plan.collection.id, exact_amount: plan.amount },
            },
          ]
        })
      )
    )
    const payment = when({ plan }, ({ plan }) => plan.carry).then(() =>
      authorizeCarriedSessionStep(
        transform({ plan, opened }, ({ plan, opened }) => ({
          session_id: (plan.carry && plan.session_id) || opened!.id,
        }))
      )
    )
    // The authorization is never undone: a lock not given back lapses rather than undo the
    // steps before it (deleting the session its payment was made from).
    giveLock(key, owner, { lapseOnFailure: true })
    return new WorkflowResponse({
      plan,
      payment_id: transform({ payment }, ({ payment }) => payment?.payment_id ?? null),
    })
  }
)
