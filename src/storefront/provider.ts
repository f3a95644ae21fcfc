/** Medusa names a payment provider `pp_<identifier>_<id>`; PayBright's identifier is `paybright`. */
export const PAYBRIGHT_PROVIDER_PREFIX = "pp_paybright_"

/** The provider id of the registration the README configures (`id: "paybright"`). */
export const PAYBRIGHT_PROVIDER_ID = "pp_paybright_paybright"

/** Whether a payment provider (or a payment session's `provider_id`) is PayBright, whatever its registration id. */
export function isPayBright(providerId?: string | null): boolean {
  return typeof providerId === "string" && providerId.startsWith(PAYBRIGHT_PROVIDER_PREFIX)
}
