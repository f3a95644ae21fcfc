import { SETTINGS_KEY_ENV } from "./secret-box"
import { nested, said, verbatim, type Said } from "./texts/said"
import type { PayBrightSettingsFacts } from "./admin-types"

/** Saved settings a process cannot use, as lower layers report it: facts, no advice. */
export type UnreadableSettingsFacts = {
  providerId: string
  /** The settings version that could not be used. */
  version: number
  /** `key`: a saved secret does not open with this process's key; `invalid`: the saved values do not fit medusa-config.ts. */
  cause: "key" | "invalid"
  /** What was found, e.g. "the saved apiToken does not decrypt with this process's PAYBRIGHT_SETTINGS_KEY". */
  fact: string
  /** The same, as a sentence the admin writes in its language, where the finding has one. */
  fact_said?: Said
}

/**
 * Why this process refuses every PayBright session, capture, refund and job: the error each of
 * them throws, and the log line. The process never falls back to medusa-config.ts's options,
 * which would run another mode, host or account than the merchant saved.
 */
export function settingsUnreadableMessage(facts: UnreadableSettingsFacts): string {
  return `PayBright is stopped in this process: the settings saved in the admin for ${facts.providerId} (version ${facts.version}) cannot be used here (${facts.fact}), and it does not run on medusa-config.ts's instead; ${advice(facts)}.`
}

/** The settings page's alert of settingsUnreadableMessage, as the facts the admin writes it from. */
export function settingsUnreadableFacts(facts: UnreadableSettingsFacts): PayBrightSettingsFacts {
  return {
    code: facts.cause === "key" ? "unreadable_key" : "unreadable_invalid",
    values: { provider: facts.providerId, version: facts.version, variable: SETTINGS_KEY_ENV },
  }
}

/** What a shopper's storefront reads instead: nothing of the store's configuration. */
export const PAYBRIGHT_UNAVAILABLE_TO_SHOPPERS =
  "PayBright financing is not available at the moment. Please choose another payment method."

/** The "PayBright: needs attention" entry for a process that reported it cannot use the saved settings. */
export function settingsUnreadableAttention(facts: UnreadableSettingsFacts, process: Said): Said {
  return said(`settings_unreadable_${facts.cause}`, {
    process: nested(process),
    provider: facts.providerId,
    fact: nested(facts.fact_said ?? verbatim(facts.fact)),
    variable: SETTINGS_KEY_ENV,
  })
}

/** Which process this is, as the merchant reads it: "The worker process 4242 on app-2". */
export function processSaid(role: "worker" | "server" | "plain", pid: number, host: string): Said {
  return said(`process_${role}`, { pid: String(pid), host })
}

/** What a process found wrong with the settings key, as a sentence. */
export function settingsKeyFact(
  finding: "no_key" | "short_key" | "does_not_decrypt",
  values: { names?: string; length?: number }
): Said {
  return said(`settings_key_${finding}`, {
    variable: SETTINGS_KEY_ENV,
    names: values.names,
    length: values.length === undefined ? undefined : String(values.length),
  })
}

function advice(facts: UnreadableSettingsFacts): string {
  return facts.cause === "key"
    ? `give every server and worker the same ${SETTINGS_KEY_ENV} and restart them, and if that key changed since the secrets were saved, enter them again on Settings → PayBright`
    : "correct them on Settings → PayBright, or medusa-config.ts, so that they fit together"
}
