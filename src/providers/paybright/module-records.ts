import type { BigNumberInput } from "@medusajs/framework/types"

/**
 * The payment module's own records that Medusa does not hand to a provider: the session's amount
 * (authorizePayment gets only `data`, which the storefront can write to) and the amount of the
 * Capture being made (capturePayment gets only its id). The provider lives in the payment
 * module's container, where the module's internal services are registered.
 */
type InternalService = {
  retrieve(id: string, config?: { select?: string[] }): Promise<Record<string, unknown>>
}

export type ModuleRecords = {
  sessionAmount(
    sessionId: string
  ): Promise<{ amount: BigNumberInput; currency_code: string; payment_collection_id: string }>
  captureAmount(captureId: string): Promise<BigNumberInput>
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
    async captureAmount(captureId) {
      const capture = await service("captureService").retrieve(captureId, { select: ["id", "amount", "raw_amount"] })
      return (capture.raw_amount ?? capture.amount) as BigNumberInput
    },
  }
}
