import Medusa from "@medusajs/js-sdk"
import { isSaid, type Said } from "../../lib/texts/said"

/** The one client every PayBright admin page and widget fetches through: the admin's own session. */
export const sdk = new Medusa({
  baseUrl: import.meta.env.VITE_BACKEND_URL || "/",
  debug: import.meta.env.DEV,
  auth: { type: "session" },
})

/** A refusal of an admin route postAction called, with its sentence as facts when the server gave one. */
export class AdminActionError extends Error {
  constructor(
    message: string,
    readonly said: Said | null
  ) {
    super(message)
  }
}

/**
 * POSTs to an admin route in the admin's session: the plugin's own, or Medusa's where the plugin's
 * middleware may refuse it (a PayBright payment's capture). Unlike the SDK's fetch,
 * which keeps only an error's English message, a refusal keeps the sentence the server handed as
 * facts, for the admin to write in its language.
 */
export async function postAction<T>(path: string, body?: Record<string, unknown>): Promise<T> {
  const base = (import.meta.env.VITE_BACKEND_URL || "/").replace(/\/$/, "")
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    credentials: "include",
    headers: { "content-type": "application/json", accept: "application/json" },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  const answer = await response.json().catch(() => ({}))
  if (!response.ok) {
    throw new AdminActionError(answer.message ?? response.statusText, isSaid(answer.said) ? answer.said : null)
  }
  return answer as T
}
