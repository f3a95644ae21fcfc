import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { PAYBRIGHT_MODULE } from "../../../modules/paybright/index"
import type PayBrightModuleService from "../../../modules/paybright/service"

export type SavePayBrightSettingsInput = {
  provider_id: string
  overrides: Record<string, unknown>
  encrypted_secrets: Record<string, string>
  /** Names of the settings that changed (secrets by name only), for the audit row. */
  changed: string[]
  actor: string
}

type SettingsRow = {
  id: string
  overrides: unknown
  encrypted_secrets: unknown
  version: number
  updated_by: string | null
}

/** Writes the provider's settings with the next version; undone by restoring the previous row. */
export const writeSettingsStep = createStep(
  "paybright-write-settings-step",
  async (input: SavePayBrightSettingsInput, { container }) => {
    const module = container.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
    const [previous] = (await module.listPayBrightSettings({ provider_id: input.provider_id })) as SettingsRow[]
    const fields = {
      overrides: input.overrides,
      encrypted_secrets: input.encrypted_secrets,
      updated_by: input.actor,
    }
    const saved = previous
      ? await module.updatePayBrightSettings({ id: previous.id, ...fields, version: previous.version + 1 })
      : await module.createPayBrightSettings({ provider_id: input.provider_id, ...fields, version: 1 })
    return new StepResponse(saved, { id: saved.id, previous })
  },
  async (undo, { container }) => {
    if (!undo) return
    const module = container.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
    if (!undo.previous) {
      await module.deletePayBrightSettings(undo.id)
      return
    }
    const { id, overrides, encrypted_secrets, updated_by } = undo.previous
    // A version above the failed one, so no process keeps what was undone.
    await module.updatePayBrightSettings({
      id,
      overrides: overrides as Record<string, unknown>,
      encrypted_secrets: encrypted_secrets as Record<string, unknown>,
      updated_by,
      version: undo.previous.version + 2,
    })
  }
)
