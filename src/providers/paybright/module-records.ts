import type { BigNumberInput } from "@medusajs/framework/types"

/**
 * The payment module's own records that Medusa does not hand to a provider: the session's amount
 * (authorizePayment gets only `data`, which the storefront can write to) and the amount of the
 * Capture being made (capturePayment gets only its id). The provider lives in the payment
 * module's container, where the module's internal services are registered.
 */
type InternalService = {
  retrieve(id: string, config?: { select?: string[]; relations?: string[] }): Promise<Record<string, unknown>>
}

/** A Capture or Refund being made, with the payment it belongs to. */
export type MovementFacts = { amount: BigNumberInput; payment_id: string; payment_collection_id: string }

export type ModuleRecords = {
  sessionAmount(
    sessionId: string
  ): Promise<{ amount: BigNumberInput; currency_code: string; payment_collection_id: string }>
  capture(captureId: string): Promise<MovementFacts>
  refund(refundId: string): Promise<MovementFacts>
}

export function moduleRecords(container: Record<string, unknown>): ModuleRecords {
  const service = (name: string): InternalService => {
    const found = container[name] as InternalService | undefined
    if (!found || typeof found.retrieve !== "function") {
      throw new Error(`PayBright needs the payment module's ${name}, which this Medusa version does not provide`)
    }
    return found
  }
  return {
    async sessionAmount(sessionId) {
      const session = await service("paymentSessionService").retrieve(sessionId, {
        select: ["id", "amount", "raw_amount", "currency_code", "payment_collection_id"],
      })
      return {
        amount: (session.raw_amount ?? session.amount) as BigNumberInput,
        currency_code: String(session.currency_code),
        payment_collection_id: String(session.payment_collection_id),
      }
    },
    capture: (captureId) => movement(service("captureService"), captureId),
    refund: (refundId) => movement(service("refundService"), refundId),
  }
}

async function movement(service: InternalService, id: string): Promise<MovementFacts> {
  const row = await service.retrieve(id, {
    select: ["id", "amount", "raw_amount", "payment.id", "payment.payment_collection_id"],
    relations: ["payment"],
  } as never)
  const payment = row.payment as { id: string; payment_collection_id: string }
  return {
    amount: (row.raw_amount ?? row.amount) as BigNumberInput,
    payment_id: payment.id,
    payment_collection_id: payment.payment_collection_id,
  }
}
