import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { isPayBright } from "../storefront/provider"
import { ordersOfCollections } from "../lib/medusa-links"
import { carryContractWorkflow } from "../workflows/carry-contract"

/** A cancellation younger than this is left to the subscriber Medusa's event reaches within seconds. */
const EVENT_GRACE_MS = 2 * 60_000
/** How far back cancellations are looked at: a day, every run of the reconciliation job. */
const LOOK_BACK_MS = 24 * 60 * 60_000

/**
 * Orders whose PayBright payment Medusa cancelled between a day and two minutes ago: where an
 * order change replaced its collection and the carry on Medusa's event did not happen (the event
 * lost, the carry failed), the contract is carried now. The workflow carries nothing where it
 * has nothing to do (an order cancelled, a contract already carried). Answers how many it carried.
 */
export async function carryMissedContracts(container: MedusaContainer, now = Date.now()): Promise<number> {
  const payments = container.resolve(Modules.PAYMENT)
  const providers = (await payments.listPaymentProviders({})).map((provider) => provider.id).filter(isPayBright)
  if (!providers.length) return 0
  const cancelled = await payments.listPayments(
    {
      provider_id: providers,
      canceled_at: { $gte: new Date(now - LOOK_BACK_MS), $lte: new Date(now - EVENT_GRACE_MS) },
    } as never,
    { select: ["id", "payment_collection_id"] }
  )
  if (!cancelled.length) return 0
  const orders = await ordersOfCollections(
    container.resolve(ContainerRegistrationKeys.QUERY),
    cancelled.map((payment) => payment.payment_collection_id)
  )
  const orderIds = [...new Set([...orders.values()].map((order) => order.id))]
  let carried = 0
  for (const orderId of orderIds) {
    const { result, errors } = await carryContractWorkflow(container).run({
      input: { order_id: orderId },
      throwOnError: false,
    })
    if (errors.length) {
      container
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .error(`PayBright: the contract of order ${orderId} could not be carried: ${errors[0].error?.message}`)
    } else if (result.plan.carry) {
      carried++
    }
  }
  return carried
}
