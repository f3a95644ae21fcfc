import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveRecord, type ResolveInput } from "../../lib/resolve-record"

export const resolveRecordStepId = "paybright-resolve-record-step"

export type { ResolveInput }

/**
 * A person's answer to an in-doubt record, under its payment's lock (src/lib/resolve-record.ts).
 *
 * Medusa's capture or refund workflow that records the answer runs from here, not by runAsStep:
 * a refusal of Medusa's becomes the merchant's sentence ("Medusa refused to record this …") with
 * the record put back as it was, which needs Medusa's error in hand, and a failed runAsStep hands
 * no later step its error. Its compensation is done in place: the Capture it made is removed, or
 * the resolution undone, when the other side fails.
 */
export const resolveRecordStep = createStep(resolveRecordStepId, async (input: ResolveInput, { container }) => {
  return new StepResponse(await resolveRecord(container, input))
})
