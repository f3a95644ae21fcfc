import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { liveContracts } from "../../lib/find-checkout"
import { recordsWriter } from "../../lib/plugin-records"

export const markPlacedApprovalStepId = "paybright-mark-placed-approval-step"

export type PlacedApproval = { approval_id: string; contract: string; order_id: string; payment_collection_id: string }

/**
 * The approval marked ordered when the order its cart's completion answered is paid by it: the
 * order's live payments are read here, and the module service applies the rule. Never fails: it
 * runs after Medusa placed the order, and a failure here must not undo that order; an approval
 * left unmarked is marked by its next delivery or by the sweep. Answers the contracts it read
 * (null when it could not read them), so an order paid by another contract is told apart. Nothing
 * to compensate: it runs last, and an ordered row stays ordered while its order exists.
 */
export const markPlacedApprovalStep = createStep(
  markPlacedApprovalStepId,
  async (input: PlacedApproval, { container }) => {
    try {
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const [{ data: orders }, { data: collections }] = await Promise.all([
        query.graph({ entity: "order", fields: ["id"], filters: { id: input.order_id } }),
        query.graph({
          entity: "payment_collection",
          fields: ["payments.data", "payments.canceled_at"],
          filters: { id: input.payment_collection_id },
        }),
      ])
      // An order that no longer exists is paid by nothing.
      const contracts = orders.length ? liveContracts(collections[0]?.payments ?? []) : []
      const marked = await recordsWriter(container).markPlacedApproval(
        // A contract is never rewritten on its row: the recorded approval's is the row's.
        { id: input.approval_id, contract: input.contract },
        {
          id: input.order_id,
          contracts,
        }
      )
      return new StepResponse({ marked, contracts })
    } catch (error) {
      container
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .warn(
          `PayBright: order ${input.order_id} is placed, but contract ${input.contract} could not be marked ordered yet (${(error as Error).message}); its next delivery does`
        )
      return new StepResponse({ marked: false, contracts: null as string[] | null })
    }
  }
)
