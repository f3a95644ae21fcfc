import { randomUUID } from "node:crypto"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

/**
 * An owner for a lock this workflow takes, made once per run and kept with its steps, so the
 * release names the same owner as the acquisition. The plugin's locks always carry one:
 * `locking-postgres` (Medusa 2.21) grants a free key taken without an owner to two callers that
 * take it at the same instant, which would let two processes capture one parcel or complete one
 * cart twice.
 */
export const lockOwnerStep = createStep("paybright-lock-owner", async () => {
  return new StepResponse(`paybright:${randomUUID()}`)
})
