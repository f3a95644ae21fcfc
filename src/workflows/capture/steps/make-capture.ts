import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { makeCapture } from "../../../capture/make-capture"
import type { PreparedCapture } from "../../../capture/prepare-capture"

/** Makes the prepared capture through Medusa's capture workflow (src/capture/make-capture.ts). */
export const makeCaptureStep = createStep(
  "paybright-make-capture-step",
  async (prepared: PreparedCapture, { container }) => {
    return new StepResponse(await makeCapture(container, prepared))
  }
)
