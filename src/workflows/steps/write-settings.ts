import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { recordsWriter } from "../../lib/plugin-records"

export type SavePayBrightSettingsInput = {
  provider_id: string
  overrides: Record<string, unknown>
  encrypted_secrets: Record<string, string>
  /** Names of the settings that changed (secrets by name only), for the audit row. */
  changed: string[]
  actor: string
}

/** Writes the provider's settings with the next version; undone by restoring the previous row. */
export const writeSettingsStep = createStep(
  "paybright-write-settings-step",
  async (input: SavePayBrightSettingsInput, { container }) => {
    const { saved, undo } = await recordsWriter(container).saveSettings({
      provider_id: input.provider_id,
      overrides: input.overrides,
      encrypted_secrets: input.encrypted_secrets,
      updated_by: input.actor,
    })
    return new StepResponse(saved, undo)
  },
  async (undo, { container }) => {
    if (undo) await recordsWriter(container).restoreSettings(undo)
  }
)
