import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { pluginRecords } from "../lib/plugin-records"
import { voidCancelledOrderContractWorkflow } from "../workflows/void-cancelled-order-contract"

/** A cancellation younger than this is left to the subscriber Medusa's event reaches within seconds. */
const EVENT_GRACE_MS = 2 * 60_000
/** How far back cancellations are looked at: a day, every run of the reconciliation job. */
const LOOK_BACK_MS = 24 * 60 * 60_000

/**
 * Orders paid with PayBright that Medusa cancelled between a day and two minutes ago: where the
 * void on Medusa's event did not happen (the event lost, the lender unreachable before the call),
 * the contract no live payment held is voided now. The workflow voids nothing where it has nothing
 * to do (voided already, partly captured, a live payment's cancellation voided it). Answers how
 * many it voided.
 */
export async function voidMissedCancellations(container: MedusaContainer, now = Date.now()): Promise<number> {
  const cancelled = await container
    .resolve(Modules.ORDER)
    .listOrders(
      { canceled_at: { $gte: new Date(now - LOOK_BACK_MS), $lte: new Date(now - EVENT_GRACE_MS) } } as never,
      { select: ["id"] }
    )
  if (!cancelled.length) return 0
  const approvals = await pluginRecords(container).listPayBrightApprovals(
    { order_id: cancelled.map((order) => order.id), state: "ordered" },
    { select: ["order_id"] }
  )
  const orderIds = [...new Set(approvals.map((approval) => approval.order_id).filter(Boolean))] as string[]
  let voided = 0
  for (const orderId of orderIds) {
    const { result, errors } = await voidCancelledOrderContractWorkflow(container).run({
      input: { order_id: orderId },
      throwOnError: false,
    })
    if (errors.length) {
      container
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .error(`PayBright: the contract of cancelled order ${orderId} could not be voided: ${errors[0].error?.message}`)
    } else if (result.voided) {
      voided++
    }
  }
  return voided
}
