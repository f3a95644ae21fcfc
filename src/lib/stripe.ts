import Stripe from "stripe"
import { z } from "zod"
import { formatAmount, parseAmount } from "./texts/amount"
import {
  CardProcessorError,
  type CardProcessor,
  type ChargeInput,
  type ChargeResult,
  type RefundInput,
  type RefundResult,
} from "./card-processor-types"

/** Time limit of each call to Stripe unless `timeoutMs` says otherwise. */
export const STRIPE_TIMEOUT_MS = 20_000
/** Stripe's own retries of a charge or refund (network errors, 429, 5xx), with the same idempotency key. */
export const STRIPE_RETRIES = 2
/**
 * The longest pause Stripe's client makes before a retry: it waits as long as Stripe's Retry-After
 * asks, up to 60 s (stripe-node's MAX_RETRY_AFTER_WAIT), and at most 5 s otherwise.
 */
const STRIPE_LONGEST_PAUSE_MS = 60_000

/** What the options say of a wrong secret key (the settings give each sentence its facts). */
export const STRIPE_SECRET_KEY_SAYS = {
  missing: 'is required: a Stripe secret key ("sk_test_…" or "sk_live_…")',
  format: 'must be a Stripe secret key ("sk_test_…" or "sk_live_…")',
}

/** Options of the Stripe card processor. */
export const stripeProcessorOptionsSchema = z
  .object({
    /** The merchant's Stripe secret key (sk_live_… or sk_test_…). Never logged. */
    secretKey: z
      .string({ error: STRIPE_SECRET_KEY_SAYS.missing })
      .regex(/^(sk|rk)_(test|live)_/, STRIPE_SECRET_KEY_SAYS.format),
    /** Overrides for tests and proxies: where the Stripe API is reached. */
    host: z.string().optional(),
    port: z.number().int().positive().optional(),
    protocol: z.enum(["http", "https"]).optional(),
    timeoutMs: z.number().int().min(1000).default(STRIPE_TIMEOUT_MS),
  })
  .strict()
export type StripeProcessorOptions = z.input<typeof stripeProcessorOptionsSchema>

/**
 * Charges the virtual card with a PaymentIntent confirmed at once with the card's details, the
 * cardholder name and billing address the lender returns, and refunds through Stripe. Stripe's
 * idempotency keys make a repeated charge or refund the same one.
 */
export class StripeCardProcessor implements CardProcessor {
  readonly name = "stripe"
  readonly chargesAutomatically = true
  private readonly stripe: Stripe

  constructor(options: StripeProcessorOptions) {
    this.stripe = stripeClient(stripeProcessorOptionsSchema.parse(options))
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    const { card } = input
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: minorUnits(input.amount),
          currency: input.currency.toLowerCase(),
          confirm: true,
          capture_method: "automatic",
          payment_method_types: ["card"],
          payment_method_data: {
            type: "card",
            card: {
              number: card.pan,
              exp_month: Number(card.expiration.slice(0, 2)),
              exp_year: 2000 + Number(card.expiration.slice(2, 4)),
              cvc: card.cvv,
            },
            billing_details: {
              name: card.cardholderName,
              address: {
                line1: card.billingAddress.address1,
                city: card.billingAddress.city,
                state: card.billingAddress.state,
                postal_code: card.billingAddress.postal_code,
                country: alpha2(card.billingAddress.country),
              },
            },
          } as unknown as Stripe.PaymentIntentCreateParams.PaymentMethodData, // raw card data is a gated Stripe feature the typings omit
          description: input.description,
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey }
      )
      if (intent.status === "processing") {
        // Stripe has taken the charge and not settled it: it may still succeed.
        throw new CardProcessorError("processing", `Stripe is still processing the charge ${intent.id}`, this.name)
      }
      if (!NOT_CHARGED.has(String(intent.status)) && intent.status !== "succeeded") {
        throw new CardProcessorError(
          "processor_error",
          `Stripe answered the charge ${intent.id} without a known status`,
          this.name
        )
      }
      if (intent.status === "succeeded" && intent.amount_received !== minorUnits(input.amount)) {
        throw new CardProcessorError(
          "processor_error",
          `Stripe answered the charge ${intent.id} with another amount (${intent.amount_received})`,
          this.name
        )
      }
      if (intent.status !== "succeeded") {
        // A virtual card cannot pass 3-D Secure or any other shopper step: cancel the intent so
        // nothing stays authorized, and report the charge as not made.
        // Tried once: the charge is already refused, and a retry would only hold the payment's lock longer.
        await this.stripe.paymentIntents.cancel(intent.id, {}, { maxNetworkRetries: 0 }).catch(() => undefined)
        throw new CardProcessorError(
          "declined",
          `Stripe left the charge ${intent.id} in status ${intent.status}; it was cancelled`,
          this.name,
          "refused"
        )
      }
      return { chargeId: intent.id, amount: formatAmount(BigInt(intent.amount_received ?? intent.amount)) }
    } catch (error) {
      throw this.explain(error, "charge")
    }
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    try {
      const refund = await this.stripe.refunds.create(
        { payment_intent: input.chargeId, amount: minorUnits(input.amount) },
        { idempotencyKey: input.idempotencyKey }
      )
      if (
        refund.status !== "succeeded" &&
        refund.status !== "pending" &&
        refund.status !== "failed" &&
        refund.status !== "canceled"
      ) {
        throw new CardProcessorError(
          "processor_error",
          `Stripe answered the refund ${refund.id} without a known status`,
          this.name
        )
      }
      if (refund.amount !== minorUnits(input.amount)) {
        throw new CardProcessorError(
          "processor_error",
          `Stripe answered the refund ${refund.id} with another amount (${refund.amount})`,
          this.name
        )
      }
      if (refund.status === "failed" || refund.status === "canceled") {
        throw new CardProcessorError(
          "declined",
          `Stripe did not refund (status ${refund.status})`,
          this.name,
          "refused"
        )
      }
      if (refund.status === "pending") {
        // Stripe took the refund but may still fail it: only Stripe's dashboard can say it went back.
        throw new CardProcessorError(
          "processor_error",
          `Stripe is still processing the refund ${refund.id}`,
          this.name,
          "in_doubt"
        )
      }
      return { refundId: refund.id, amount: formatAmount(BigInt(refund.amount)) }
    } catch (error) {
      throw this.explain(error, "refund")
    }
  }

  /** Stripe's error, reduced to what a merchant can act on; card data never goes into it. */
  private explain(error: unknown, operation: string): CardProcessorError {
    if (error instanceof CardProcessorError) {
      return error
    }
    if (error instanceof Stripe.errors.StripeCardError) {
      const code =
        error.code === "expired_card"
          ? "expired_card"
          : error.code === "incorrect_number" || error.code === "invalid_expiry_year"
            ? "invalid_card"
            : "declined"
      return new CardProcessorError(code, `Stripe declined the virtual card: ${error.message}`, this.name)
    }
    if (error instanceof Stripe.errors.StripeConnectionError) {
      // Stripe's client already retried with the same idempotency key; a new attempt from Medusa
      // would carry a new one, so a charge that went through unseen could be made twice.
      return new CardProcessorError("network", `Stripe did not answer the ${operation}`, this.name)
    }
    if (
      error instanceof Stripe.errors.StripeAuthenticationError ||
      error instanceof Stripe.errors.StripePermissionError
    ) {
      return new CardProcessorError("configuration", `Stripe refused the secret key for the ${operation}`, this.name)
    }
    if (
      error instanceof Stripe.errors.StripeInvalidRequestError ||
      error instanceof Stripe.errors.StripeRateLimitError
    ) {
      // Stripe refused the request as such (400/404/429): nothing was charged or refunded.
      return new CardProcessorError(
        "processor_error",
        `Stripe refused the ${operation}: ${error.message}`,
        this.name,
        "refused"
      )
    }
    const message = error instanceof Stripe.errors.StripeError ? error.message : "unexpected error"
    return new CardProcessorError("processor_error", `Stripe failed the ${operation}: ${message}`, this.name)
  }
}

/**
 * The longest a charge through Stripe can take: the charge with Stripe's retries and their pauses,
 * then, when the card needed the cardholder, the intent's cancellation tried once. A refund takes
 * no more than the charge alone. The payment's lock is held at least this long.
 */
export function longestStripeChargeMs(timeoutMs = STRIPE_TIMEOUT_MS): number {
  return longestStripeCallMs(timeoutMs) + timeoutMs
}

/** One call with Stripe's retries and their longest pauses. */
export function longestStripeCallMs(timeoutMs = STRIPE_TIMEOUT_MS): number {
  return (STRIPE_RETRIES + 1) * timeoutMs + STRIPE_RETRIES * STRIPE_LONGEST_PAUSE_MS
}

/** Stripe's client for these options; `overrides` for a call made apart from charges and refunds. */
function stripeClient(
  options: z.output<typeof stripeProcessorOptionsSchema>,
  overrides: { timeout?: number; maxNetworkRetries?: number } = {}
): Stripe {
  return new Stripe(options.secretKey, {
    host: options.host,
    port: options.port,
    protocol: options.protocol,
    timeout: options.timeoutMs,
    maxNetworkRetries: STRIPE_RETRIES,
    telemetry: false,
    ...overrides,
  })
}

/**
 * Checks a secret key before it is stored, with a call that reads and changes nothing of weight:
 * the account's balance. 401 means Stripe does not know the key; 403, a restricted key Stripe
 * knows that may not read the balance, which is accepted (it is charged with, not read from).
 */
export async function checkStripeKey(
  options: StripeProcessorOptions
): Promise<{ accepted: boolean; message: string; refusal?: "refused" | "unchecked" }> {
  const parsed = stripeProcessorOptionsSchema.parse(options)
  const stripe = stripeClient(parsed, { timeout: Math.min(parsed.timeoutMs, 10_000), maxNetworkRetries: 0 })
  try {
    await stripe.balance.retrieve()
    return { accepted: true, message: "Stripe accepted the secret key." }
  } catch (error) {
    if (error instanceof Stripe.errors.StripeAuthenticationError) {
      return {
        accepted: false,
        refusal: "refused",
        message:
          "Stripe did not accept this secret key (401); copy it again from the Stripe dashboard (Developers → API keys).",
      }
    }
    if (error instanceof Stripe.errors.StripePermissionError) {
      return {
        accepted: true,
        message: "Stripe accepted the restricted key; make sure it may create PaymentIntents and refunds.",
      }
    }
    const said = error instanceof Stripe.errors.StripeError ? error.message : "no answer"
    return {
      accepted: false,
      refusal: "unchecked",
      message: `the secret key could not be checked with Stripe (${said}); try again.`,
    }
  }
}

/** Intent states in which nothing was charged: the plugin cancels the intent and reports the charge refused. */
const NOT_CHARGED = new Set([
  "requires_action",
  "requires_payment_method",
  "requires_confirmation",
  "requires_capture",
  "canceled",
])

function minorUnits(amount: string): number {
  return Number(parseAmount(amount))
}

// The lender writes the country in three letters (spec §2.1); Stripe wants two.
function alpha2(country: string): string {
  const known: Record<string, string> = { CAN: "CA", USA: "US" }
  return known[country.toUpperCase()] ?? country.slice(0, 2).toUpperCase()
}
