import { definePolicies } from "@medusajs/framework/utils"

/**
 * The plugin's own RBAC policies, beside Medusa's (enforced with Medusa's `rbac` feature flag).
 * Medusa finds this folder in the store's and each plugin's source (`src/policies`, built to
 * `.medusa/server/src/policies`) and keeps the policies in its database, so roles can be given
 * them in the admin. Each guards an action whose harm goes beyond an order's payment.
 */
/** Changing the card processor, its secret, the environment or the credentials. */
export const SETTINGS_POLICY = { resource: "paybright_settings", operation: "update" }
/** Revealing a virtual card to a person. */
export const CARD_REVEAL_POLICY = { resource: "paybright_card", operation: "reveal" }

export const payBrightPolicies = definePolicies([
  {
    name: "UpdatePaybrightSettings",
    ...SETTINGS_POLICY,
    description:
      "Change where PayBright money goes: the card processor and its secret key, the environment, the API key and token",
  },
  {
    name: "RevealPaybrightCard",
    ...CARD_REVEAL_POLICY,
    description: "Reveal the full virtual card of a PayBright contract charged by a person (manual card processor)",
  },
])
