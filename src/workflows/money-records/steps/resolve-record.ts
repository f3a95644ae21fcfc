import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveRecord, type ResolveInput } from "../../../resolution/resolve-record"

/** A person's answer to an in-doubt record, under its payment's lock (src/resolution/resolve-record.ts). */
export const resolveRecordStep = createStep(
  "paybright-resolve-record-step",
  async (input: ResolveInput, { container }) => {
    return new StepResponse(await resolveRecord(container, input))
  }
)
