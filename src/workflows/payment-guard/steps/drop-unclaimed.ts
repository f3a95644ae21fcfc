import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { recordsOf } from "../../../money/record-queries"

/** Once the cancellation's request is answered: the prepared records Medusa did not claim never started. */
export const dropUnclaimedStep = createStep(
  "paybright-drop-unclaimed-step",
  async (input: { record_ids: string[] }, { container }) => {
    if (input.record_ids.length === 0) return new StepResponse(0)
    const records = recordsOf(container)
    const unclaimed = (await records.listPayBrightMoneyRecords(
      { id: input.record_ids, state: "pending", medusa_id: null },
      { select: ["id"] }
    )) as unknown as { id: string }[]
    if (unclaimed.length) await records.deletePayBrightMoneyRecords(unclaimed.map((row) => row.id))
    return new StepResponse(unclaimed.length)
  }
)
