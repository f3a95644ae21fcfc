import { recordsWriter } from "../../lib/plugin-records"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

/** Once the cancellation's request is answered: the prepared records Medusa did not claim never started. */
export const dropUnclaimedStep = createStep(
  "paybright-drop-unclaimed-step",
  async (input: { record_ids: string[] }, { container }) => {
    return new StepResponse(await recordsWriter(container).dropUnclaimedRecords(input.record_ids))
  }
)
