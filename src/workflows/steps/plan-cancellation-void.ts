import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cancellationVoidPlan, type CancellationVoidPlan } from "../../lib/carried-contract"
import { orderOfContract } from "../../lib/order-collections"
import { pluginRecords } from "../../lib/plugin-records"

export const PLAN_CANCELLATION_VOID_STEP = "paybright-plan-cancellation-void-step"

/**
 * Reads a cancelled order's payments, its `ordered` approval and the plugin's records of the
 * contract, and says whether the contract is still to be voided (cancellationVoidPlan). A read:
 * nothing to undo.
 */
export const planCancellationVoidStep = createStep(
  PLAN_CANCELLATION_VOID_STEP,
  async (input: { order_id: string }, { container }): Promise<StepResponse<CancellationVoidPlan>> => {
    const records = pluginRecords(container)
    const [approval] = await records.listPayBrightApprovals({ order_id: input.order_id, state: "ordered" }, { take: 1 })
    if (!approval) return new StepResponse({ void: false, why: "the order is not paid with PayBright" })
    const [order, voids, captures] = await Promise.all([
      orderOfContract(container.resolve(ContainerRegistrationKeys.QUERY), input.order_id),
      records.listPayBrightMoneyRecords({ contract: approval.contract, kind: "void" }, { select: ["id"] }),
      records.listPayBrightMoneyRecords(
        { contract: approval.contract, kind: "capture", state: ["pending", "in_doubt"] } as never,
        { select: ["id"] }
      ),
    ])
    return new StepResponse(
      cancellationVoidPlan(order, approval, { voids: voids.length, open_captures: captures.length })
    )
  }
)
