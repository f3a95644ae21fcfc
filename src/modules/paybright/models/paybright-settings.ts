import { model } from "@medusajs/framework/utils"

/**
 * What the merchant saved in the admin for one PayBright provider registration: the options that
 * override medusa-config.ts, and the secrets, encrypted (AES-256-GCM). `version` goes up with each
 * save; every server and worker process compares it with the one it runs on, so a change reaches
 * them all within seconds without a restart.
 */
export const PayBrightSettings = model.define("paybright_settings", {
  id: model.id({ prefix: "pbset" }).primaryKey(),
  /** The payment provider this applies to, e.g. `pp_paybright_paybright`. */
  provider_id: model.text().unique(),
  /** Options that override medusa-config.ts (never a secret). */
  overrides: model.json().default({}),
  /** Secrets by option name (`apiToken`, `cardProcessorSecretKey`), each encrypted on its own. */
  encrypted_secrets: model.json().default({}),
  version: model.number().default(1),
  /** The admin user who saved last. */
  updated_by: model.text().nullable(),
})
