import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { captureResult } from "../../lib/make-capture"
import type { PreparedCapture } from "../../lib/prepare-capture"

export const concludeCaptureStepId = "paybright-conclude-capture-step"

export type ConcludeCaptureInput = { prepared: PreparedCapture; failure: { error: string | null } | undefined }

/**
 * How the capture ended, read off its record; when Medusa's workflow failed, the record is first
 * made to say what happened (src/lib/make-capture.ts).
 *
 * No compensation: it writes only what the lender and Medusa already did.
 */
export const concludeCaptureStep = createStep(
  concludeCaptureStepId,
  async (input: ConcludeCaptureInput, { container }) => {
    return new StepResponse(await captureResult(container, input.prepared, input.failure?.error ?? null))
  }
)
