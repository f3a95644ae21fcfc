import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { makeCaptureOnce } from "../../../capture/make-capture"
import type { CaptureRequestInput, LocatedCapture } from "../../../capture/types"

/**
 * Under the payment's lock: the capture's record is written, then the capture made through
 * Medusa's capture workflow (src/capture/make-capture.ts).
 */
export const makeCaptureStep = createStep(
  "paybright-make-capture-step",
  async (input: { request: CaptureRequestInput; located: LocatedCapture }, { container }) => {
    return new StepResponse(await makeCaptureOnce(container, input.request, input.located))
  }
)
