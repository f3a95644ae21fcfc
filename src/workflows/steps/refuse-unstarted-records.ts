import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { concludeFoundEnd } from "../../lib/attempt-movement"
import { STOPPED_BEFORE_START } from "../../lib/open-refusals"
import { recordsWriter } from "../../lib/plugin-records"
import type { UnclaimedRecord } from "./find-stale-records"

export const refuseUnstartedRecordsStepId = "paybright-refuse-unstarted-records-step"

export type RefuseUnstartedRecordsInput = { unclaimed: UnclaimedRecord[] }

/**
 * Records written ahead of a movement that never claimed them (its process stopped first):
 * nothing was sent, so each is refused, naming the Medusa row removed for it, and may be retried
 * (a parcel's own capture is, by the missed parcels' job: src/sweeps/capture-missed-parcels.ts).
 *
 * No compensation: nothing moved whatever fails next, and the next run would refuse them again.
 */
export const refuseUnstartedRecordsStep = createStep(
  refuseUnstartedRecordsStepId,
  async (input: RefuseUnstartedRecordsInput, { container }) => {
    const funnel = {
      records: recordsWriter(container),
      logger: container.resolve<Logger>(ContainerRegistrationKeys.LOGGER),
    }
    for (const { record, stray } of input.unclaimed) {
      await concludeFoundEnd(funnel, record, {
        outcome: "not_started",
        fact: STOPPED_BEFORE_START,
        medusaId: stray,
      })
    }
    return new StepResponse(input.unclaimed.map(({ record }) => record.id))
  }
)
