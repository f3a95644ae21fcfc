import { z } from "zod"
import { cardProcessorConfigSchema } from "./card-processors"
import { STRIPE_SECRET_KEY_SAYS } from "./stripe"
import { isAmount, normalizeAmount, parseAmount } from "./texts/amount"
import type { PayBrightSettingsFacts } from "./admin-types"
import { atLeast, atMost, factsOfIssue, relatedIssue, says } from "./option-facts"

/** The lender's documented hosts (protocol.md §1). */
export const LENDER_HOSTS = {
  sandbox: { apiUrl: "https://sandbox.api.paybright.com", checkoutUrl: "https://sandbox.paybright.com" },
  production: { apiUrl: "https://api.paybright.com", checkoutUrl: "https://app.paybright.com" },
} as const

/**
 * Currencies the lender finances, each with two decimals (PayBright lends in Canadian dollars).
 * A zero-decimal currency is never accepted, so no amount reaches a card processor a hundredfold.
 */
export const LENDER_CURRENCIES = ["CAD"] as const

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"])

/** Whether a URL may be used in production: https, or a loopback address (the simulator, a local proxy). */
export function productionSafeUrl(value: string): boolean {
  const parsed = new URL(value)
  return parsed.protocol === "https:" || LOOPBACK_HOSTS.has(parsed.hostname)
}

const storefrontPath = (fallback: string) =>
  z
    .string()
    .startsWith("/", "must start with /")
    .refine((path) => !path.includes("{cart_id}"), {
      message: "must not contain {cart_id}: a cart id in a URL is a credential, and the storefront already has it",
    })
    .default(fallback)

const url = (what: string) =>
  z
    .string({ error: `must be the ${what} as a URL` })
    .url({ error: `must be the ${what} as an absolute http(s) URL` })
    .transform((value) => value.replace(/\/+$/, ""))

// The Stripe processor's sentences, with their facts: card processors sit below the settings.
says("required", STRIPE_SECRET_KEY_SAYS.missing)
says("stripe_key_format", STRIPE_SECRET_KEY_SAYS.format)

const AMOUNT_EXAMPLE = { example: "100.00" }
const APR = { max: "99.9999", example: "9.99" }

/** An order total as a decimal string ("100", "15000.00"); numbers are accepted from medusa-config.ts. */
const orderAmount = z
  .union([z.string(), z.number()], { error: says("amount_format", "must be an amount such as 100.00", AMOUNT_EXAMPLE) })
  .transform((value) => String(value).trim())
  .refine(
    (value) => isAmount(value),
    says("amount_format", "must be an amount with at most two decimals, such as 100.00", AMOUNT_EXAMPLE)
  )
  .transform((value) => normalizeAmount(value))

/**
 * The fields of every PayBright option, before the checks that relate them. The settings page in
 * the admin edits some of them and is validated by `optionsSchema`, the same as medusa-config.ts.
 */
export const optionFieldsSchema = z
  .object({
    /** The merchant's API Key from PayBright (sent as x_account_id and merchantApiKey). */
    apiKey: z
      .string({ error: says("required", "is required: the API Key PayBright issued to the merchant") })
      .trim()
      .min(1, says("empty", "must not be empty")),
    /** The merchant's API Token: the HMAC secret and the password of HTTP Basic auth. Never logged. */
    apiToken: z
      .string({ error: says("required", "is required: the API Token PayBright issued to the merchant") })
      .min(1, says("empty", "must not be empty")),
    /** Which of the lender's hosts to use; `apiUrl` and `checkoutUrl` override them. */
    environment: z
      .enum(["sandbox", "production"], { error: says("choice", 'must be "sandbox" or "production"') })
      .default("sandbox"),
    /** Base URL of the lender's REST API (the client appends /api/...). Point it at the simulator in development. */
    apiUrl: url("lender's REST API base").optional(),
    /** Base URL of the hosted application host (the plugin appends /CheckOut/ApplicationForm.aspx, and /checkout/api2.aspx to void). */
    checkoutUrl: url("lender's checkout host").optional(),
    /** Public URL of this Medusa server: the lender's callback and the shopper's return reach it. */
    backendUrl: url("public URL of the Medusa server"),
    /** Public URL of the storefront, where shoppers land after the application. */
    storefrontUrl: url("public URL of the storefront"),
    /**
     * Storefront paths the shopper is sent to after the application. `{order_id}` and
     * `{country_code}` are filled in; `checkout` gets `paybright_status`. The defaults are the
     * return route docs/storefront/dtc-starter.md adds to Medusa's starters: it forgets the
     * completed cart and moves the shopper on with a same-site navigation, so the starter's
     * SameSite=Strict cookies come along (a redirect chain begun on the lender's site drops them).
     */
    storefrontPaths: z
      .object({
        orderConfirmed: storefrontPath("/{country_code}/paybright/return?order_id={order_id}"),
        checkout: storefrontPath("/{country_code}/paybright/return"),
      })
      .prefault({}),
    /** How the merchant is paid: the lender's in-store capture, or the contract's virtual card. */
    captureMode: z
      .enum(["in_store", "virtual_card"], { error: says("choice", 'must be "in_store" or "virtual_card"') })
      .default("in_store"),
    /**
     * In virtual-card mode, the processor that charges the card: `{ type: "stripe", options: { secretKey } }`,
     * `{ type: "manual" }` (a person charges it on a terminal), or `{ type: "custom", resolve, options }`.
     */
    cardProcessor: cardProcessorConfigSchema.optional(),
    /** When the plugin captures automatically: at shipment, at fulfillment, or never (the merchant captures). */
    captureOn: z
      .enum(["shipment", "fulfillment", "manual"], {
        error: says("choice", 'must be "shipment", "fulfillment" or "manual"'),
      })
      .default("shipment"),
    /** The x_test flag sent with every request. Defaults to true in sandbox, false in production. */
    test: z.boolean({ error: "must be true or false" }).optional(),
    /** Shown on the lender's application page (x_shop_name). */
    shopName: z.string().trim().min(1, says("empty", "must not be empty")).default("Online store"),
    /** ISO-3166 alpha-2 country of the shop (x_shop_country). PayBright lends in Canada. */
    shopCountry: z
      .string()
      .regex(/^[A-Za-z]{2}(-fr)?$/, 'must be a two-letter country code such as "CA"')
      .default("CA"),
    /** Currencies sessions may be opened in: only those the lender finances (CAD). */
    currencies: z
      .array(
        z
          .string()
          .transform((code) => code.toUpperCase())
          .refine((code) => (LENDER_CURRENCIES as readonly string[]).includes(code), {
            message: says(
              "currency_not_financed",
              `may hold only currencies PayBright finances (${LENDER_CURRENCIES.join(", ")})`,
              { currencies: LENDER_CURRENCIES.join(", ") }
            ),
          })
      )
      .min(
        1,
        says("no_currency", `must hold at least one currency PayBright finances (${LENDER_CURRENCIES.join(", ")})`, {
          currencies: LENDER_CURRENCIES.join(", "),
        })
      )
      .default(["CAD"]),
    /**
     * Virtual-card mode: minutes after an approval during which a card the lender cannot show yet
     * (404, 5xx) leaves the session usable, and a redelivered callback or the shopper's return
     * tries again. After it the contract is reported as an orphan.
     */
    virtualCardGraceMinutes: z.number().min(0, atLeast(0)).max(1440, atMost(1440)).default(10),
    /**
     * Whether an approved contract that can never become an order (an orphan) is voided at the
     * lender once it is final, so the shopper carries no loan (true unless set). In-store mode
     * only: the lender's order-management API does not cover virtual-card contracts.
     */
    voidOrphans: z.boolean({ error: "must be true or false" }).optional(),
    /**
     * @deprecated The earlier name of `voidOrphans`, read when `voidOrphans` is not set, so that a
     * store configured with it keeps its choice.
     */
    releaseOrphans: z.boolean({ error: "must be true or false" }).optional(),
    /**
     * Days after which the lender cancels what an authorization still holds uncaptured: 30 unless
     * the merchant negotiated longer with PayBright (protocol.md §6).
     */
    authorizationDays: z.number().int().min(1, atLeast(1)).max(365, atMost(365)).default(30),
    /** A daily job, and the admin's order list, report authorizations with an uncaptured remainder older than this. */
    expiryWarningDays: z.number().int().min(1, atLeast(1)).max(365, atMost(365)).default(25),
    /** Milliseconds before a call to the lender is abandoned. */
    timeoutMs: z.number().int().min(1000, atLeast(1000)).max(120_000, atMost(120_000)).default(15_000),
    /** The smallest order total PayBright is offered for; a session for less is refused with the reason. */
    minOrderAmount: orderAmount.optional(),
    /** The largest order total PayBright is offered for; a session for more is refused with the reason. */
    maxOrderAmount: orderAmount.optional(),
    /**
     * The terms of the storefront's financing estimate ("or from $X/month"), served by
     * GET /store/paybright/limits: the number of monthly payments and the APR (in percent). Without
     * both, storefronts show no estimate.
     */
    financingMonths: z
      .number({ error: says("whole_months", "must be a whole number of months") })
      .int(says("whole_months", "must be a whole number of months"))
      .min(1, atLeast(1))
      .max(120, atMost(120))
      .optional(),
    financingApr: z
      .union([z.string(), z.number()], { error: says("percentage_format", "must be a percentage such as 9.99", APR) })
      .transform((value) => String(value).trim())
      .refine(
        (value) => /^\d{1,2}(\.\d{1,4})?$/.test(value),
        says("percentage_format", "must be a percentage from 0 to 99.9999, such as 9.99", APR)
      )
      .transform((value) => String(Number(value)))
      .optional(),
    /** A one-time fee financed with the purchase, in the estimate. */
    financingSetupFee: orderAmount.optional(),
    /** A fee added to each monthly payment, in the estimate. */
    financingMonthlyFee: orderAmount.optional(),
    /** The smallest price the estimate is shown for (it is never shown outside the order limits either). */
    financingMinAmount: orderAmount.optional(),
    /** The public key of PayBright's promotional widget; storefronts may show the widget instead of the estimate. */
    promotionalWidgetKey: z
      .string()
      .trim()
      .min(1, says("empty", "must not be empty"))
      .max(200, says("too_long", "must be at most 200 characters", { max: 200 }))
      .optional(),
  })
  .strict()

/**
 * Every setting of the PayBright provider. Medusa calls `validateOptions` with these at boot,
 * so a wrong option stops the store with a message naming it.
 */
export const optionsSchema = optionFieldsSchema
  .superRefine((options, context) => {
    // Runs even when a limit itself is wrong (reported on its own): compare only valid amounts.
    const [min, max] = [options.minOrderAmount, options.maxOrderAmount]
    if (
      typeof min === "string" &&
      typeof max === "string" &&
      isAmount(min) &&
      isAmount(max) &&
      parseAmount(min) > parseAmount(max)
    ) {
      context.addIssue(
        relatedIssue(["maxOrderAmount"], "not_less_than", `must not be less than minOrderAmount (${min})`, {
          other: "minOrderAmount",
          value: min,
        })
      )
    }
    const financing = ["financingSetupFee", "financingMonthlyFee", "financingMinAmount"] as const
    for (const [name, needs] of [
      ["financingMonths", "financingApr"],
      ["financingApr", "financingMonths"],
    ] as const) {
      const wanted = options[needs] !== undefined || financing.some((term) => options[term] !== undefined)
      if (options[name] === undefined && wanted) {
        context.addIssue(
          relatedIssue(
            [name],
            "estimate_needs_both",
            "is required for the financing estimate, with financingMonths and financingApr together",
            { months: "financingMonths", apr: "financingApr" }
          )
        )
      }
    }
    if (
      options.voidOrphans !== undefined &&
      options.releaseOrphans !== undefined &&
      options.voidOrphans !== options.releaseOrphans
    ) {
      context.addIssue({
        code: "custom",
        path: ["releaseOrphans"],
        message: "is the earlier name of voidOrphans and says the opposite: set voidOrphans alone",
      })
    }
    if (options.expiryWarningDays >= options.authorizationDays) {
      context.addIssue({
        code: "custom",
        path: ["expiryWarningDays"],
        message: `must be less than authorizationDays (${options.authorizationDays}), or the warning comes after the lender cancelled`,
      })
    }
    if (options.environment === "production") {
      if (options.test === true) {
        context.addIssue(
          relatedIssue(
            ["test"],
            "test_in_production",
            "must not be true in production: the lender would treat every contract as a test"
          )
        )
      }
      for (const name of ["backendUrl", "storefrontUrl", "apiUrl", "checkoutUrl"] as const) {
        const value = options[name]
        if (value && !productionSafeUrl(value)) {
          context.addIssue(
            relatedIssue(
              [name],
              "https_required",
              "must be an https URL in production (only loopback addresses may use http)"
            )
          )
        }
      }
    }
    if (options.captureMode === "virtual_card" && !options.cardProcessor) {
      context.addIssue(
        relatedIssue(
          ["cardProcessor"],
          "processor_required",
          'is required when captureMode is "virtual_card": { type: "stripe", options: { secretKey } } or { type: "manual" }'
        )
      )
    }
  })
  .transform(({ releaseOrphans, ...options }) => ({
    ...options,
    voidOrphans: options.voidOrphans ?? releaseOrphans ?? true,
    apiUrl: options.apiUrl ?? LENDER_HOSTS[options.environment].apiUrl,
    checkoutUrl: options.checkoutUrl ?? LENDER_HOSTS[options.environment].checkoutUrl,
    test: options.test ?? options.environment === "sandbox",
  }))

export type PayBrightOptions = z.output<typeof optionsSchema>

/**
 * Parses the provider's options, or throws one error that names every wrong option and never
 * repeats a value (the token is among them).
 */
export function parseOptions(raw: unknown): PayBrightOptions {
  const parsed = optionsSchema.safeParse(raw ?? {})
  if (parsed.success) {
    return parsed.data
  }
  const problems = optionIssues(parsed.error).map(({ option, message }) =>
    option ? `\`${option}\` ${message}` : message
  )
  throw new Error(`PayBright provider options are invalid: ${problems.join("; ")}`)
}

/**
 * Each problem of a failed parse, with the option it concerns (dotted path) and its facts (the
 * admin writes it from them); never a value the merchant did not type (the token is an option).
 */
export function optionIssues(error: z.ZodError): ({ option: string; message: string } & PayBrightSettingsFacts)[] {
  return error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      const keys = issue.keys.map((key) => `\`${key}\``).join(", ")
      return {
        option: "",
        message: `unknown option${issue.keys.length > 1 ? "s" : ""} ${keys}`,
        code: "invalid",
        values: { option: issue.keys.join(", ") },
      }
    }
    return { option: issue.path.join(".") || "(options)", message: issue.message, ...factsOfIssue(issue) }
  })
}
