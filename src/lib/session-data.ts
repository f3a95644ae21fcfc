import { z } from "zod"

/**
 * A short code the storefront may show while the shopper is back at checkout: the application is
 * still open (`awaiting_application`), approved, declined, pending at the lender, waiting for the
 * virtual card (`card_pending`), or `expired` (apply again).
 */
export const SESSION_STATUSES = [
  "awaiting_application",
  "approved",
  "card_pending",
  "declined",
  "pending",
  "expired",
] as const
export type SessionStatus = (typeof SESSION_STATUSES)[number]

/**
 * The keys this provider writes into a payment session's `data`. The Store API shows `data` to
 * the storefront and merges the storefront's own keys into it at creation, so it holds only what
 * the storefront needs (the form, a status code): no configuration hint, no lender text, no card
 * fact. Nothing read back from it is trusted: an approval is the plugin's own row.
 */
export const sessionDataSchema = z.object({
  session_id: z.string().min(1),
  redirect: z
    .object({ url: z.string(), method: z.literal("POST"), fields: z.record(z.string(), z.string()) })
    .optional(),
  paybright_status: z.enum(SESSION_STATUSES).optional(),
  /** Set by the plugin's own routes only: a decline or pending result, verified again by updatePayment. */
  lender_result: z.record(z.string(), z.unknown()).optional(),
})
export type SessionData = z.infer<typeof sessionDataSchema>

/** The keys a payment carries once authorized; they move with it to capture and refund. */
export const paymentDataSchema = z.object({
  session_id: z.string(),
  gateway_reference: z.string().min(1),
  amount: z.string(),
  currency: z.string(),
  test: z.boolean(),
  capture_mode: z.enum(["in_store", "virtual_card"]),
  /** The channel the payment was authorized under (src/lib/payment-channel.ts); absent on older payments. */
  card_processor: z.string().nullable().optional(),
  environment: z.enum(["sandbox", "production"]).optional(),
  account_id: z.string().optional(),
  /**
   * When the plugin captures it by itself, as its registration said at authorization (a later
   * change of `captureOn` applies to new payments only); absent on older payments.
   */
  capture_on: z.enum(["shipment", "fulfillment", "manual"]).optional(),
  approved_at: z.string().optional(),
  /**
   * On a payment a contract was carried into after an order change (src/lib/carried-contract.ts):
   * what the contract's earlier payments captured at the lender, two decimals.
   */
  captured_before: z.string().optional(),
  /** Safe card facts in virtual-card mode: never the PAN or CVV. */
  card: z
    .object({
      card_token: z.string(),
      last4: z.string(),
      expiry: z.string(),
      brand: z.string(),
    })
    .optional(),
  /** Virtual-card charges on the merchant's processor, one per Medusa capture; refunds go back to them. */
  charges: z
    .array(z.object({ id: z.string(), capture_id: z.string(), amount: z.string(), refunded: z.string() }))
    .optional(),
})
export type PaymentData = z.infer<typeof paymentDataSchema>

export function readPaymentData(data: unknown): PaymentData {
  const parsed = paymentDataSchema.safeParse(data)
  if (!parsed.success) {
    throw new Error("This payment has no PayBright contract recorded; it was not authorized by PayBright")
  }
  return parsed.data
}
