import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { prepareCapture } from "../../../capture/prepare-capture"
import type { CaptureRequestInput } from "../../../capture/types"

/** Under the payment's lock: the record of the capture about to be made (src/capture/prepare-capture.ts). */
export const prepareCaptureRecordStep = createStep(
  "paybright-prepare-capture-record-step",
  async (input: { request: CaptureRequestInput; skip_reason: string | null }, { container }) => {
    return new StepResponse(await prepareCapture(container, input.request, input.skip_reason))
  }
)
