import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { carryPlan, type CarryPlan } from "../../lib/carried-contract"
import { orderOfContract } from "../../lib/order-collections"
import { pluginRecords } from "../../lib/plugin-records"

export const PLAN_CARRY_STEP = "paybright-plan-carry-step"

/**
 * Reads the order's collections and its `ordered` approval, and says whether its contract is to be
 * carried into the collection Medusa opened after an order change, and for what (carryPlan). A
 * read: nothing to undo.
 */
export const planCarryStep = createStep(
  PLAN_CARRY_STEP,
  async (input: { order_id: string }, { container }): Promise<StepResponse<CarryPlan>> => {
    const [approval] = await pluginRecords(container).listPayBrightApprovals(
      { order_id: input.order_id, state: "ordered" },
      { take: 1 }
    )
    if (!approval) return new StepResponse({ carry: false, why: "the order is not paid with PayBright" })
    const order = await orderOfContract(container.resolve(ContainerRegistrationKeys.QUERY), input.order_id)
    return new StepResponse(carryPlan(order, approval))
  }
)
