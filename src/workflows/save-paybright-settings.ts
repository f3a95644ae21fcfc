import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { type PayBrightEventInput, recordPayBrightEventsStep } from "./steps/record-paybright-events"
import { type SavePayBrightSettingsInput, writeSettingsStep } from "./steps/write-settings"

/**
 * Saves what the merchant set on Settings → PayBright and writes the audit row: who changed which
 * settings, never a secret's value. Every process picks the new version up within seconds.
 */
export const savePayBrightSettingsWorkflow = createWorkflow(
  "paybright-save-settings-workflow",
  (input: SavePayBrightSettingsInput) => {
    const saved = writeSettingsStep(input)
    const auditRows = transform({ input }, ({ input }): PayBrightEventInput[] => [
      {
        kind: "settings.changed",
        actor: input.actor,
        message: `PayBright settings of ${input.provider_id} changed: ${input.changed.length ? input.changed.join(", ") : "nothing (saved unchanged)"}.`,
        details: { provider_id: input.provider_id, changed: input.changed },
      },
    ])
    recordPayBrightEventsStep(auditRows)
    return new WorkflowResponse(saved)
  }
)
