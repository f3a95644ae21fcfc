import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { prepareCapture, type PreparedCapture } from "../../lib/prepare-capture"
import type { CaptureRequestInput, LocatedCapture } from "../../lib/capture-types"

export const prepareCaptureStepId = "paybright-prepare-capture-step"

export type PrepareCaptureStepInput = { request: CaptureRequestInput; located: LocatedCapture }

/**
 * Under the payment's lock: the capture's record, valued and written in one call to the module
 * service before Medusa or the lender is asked (src/lib/prepare-capture.ts).
 *
 * No compensation: a record written ahead stays, since the reconciliation refuses one nothing
 * claimed as not started, which the merchant can retry; removing it would lose the parcel's capture.
 */
export const prepareCaptureStep = createStep(
  prepareCaptureStepId,
  async (input: PrepareCaptureStepInput, { container }): Promise<StepResponse<PreparedCapture>> => {
    return new StepResponse(await prepareCapture(container, input.request, input.located))
  }
)
