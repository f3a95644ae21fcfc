import { createRequire } from "node:module"
import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import StripeProviderService from "@medusajs/payment-stripe/dist/services/stripe-provider"

type Options = ConstructorParameters<typeof StripeProviderService>[1] & { apiBase: string }

// The Stripe SDK Medusa's provider itself depends on (its own version, not this project's).
const StripeSdk = createRequire(require.resolve("@medusajs/payment-stripe"))("stripe")

/**
 * Medusa's own Stripe provider (@medusajs/payment-stripe), unchanged but for where its Stripe
 * client sends requests: `apiBase`, the fake Stripe server. The provider builds its client with
 * the API key alone (`new Stripe(apiKey)`), which always reaches api.stripe.com; this replaces
 * that client with one built the same way plus host, port and protocol, which the SDK supports.
 */
class StripeOnLocalServer extends StripeProviderService {
  constructor(container: ConstructorParameters<typeof StripeProviderService>[0], options: Options) {
    super(container, options)
    const api = new URL(options.apiBase)
    ;(this as unknown as { stripe_: unknown }).stripe_ = new StripeSdk(options.apiKey, {
      host: api.hostname,
      port: Number(api.port),
      protocol: api.protocol.replace(":", ""),
    })
  }
}

export default ModuleProvider(Modules.PAYMENT, { services: [StripeOnLocalServer] })
