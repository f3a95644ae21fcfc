import { z } from "zod"

/**
 * The keys this provider writes into a payment session's `data`. The Store API shows `data` to
 * the storefront and merges the storefront's keys into it, so nothing here is secret and nothing
 * read back is trusted without a check: the approval is re-verified by its signature.
 */
export const sessionDataSchema = z.object({
  session_id: z.string().min(1),
  amount: z.string(),
  currency: z.string(),
  test: z.boolean(),
  redirect: z
    .object({ url: z.string(), method: z.literal("POST"), fields: z.record(z.string(), z.string()) })
    .optional(),
  /** The lender's signed result, recorded by the callback or return route. */
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
  approved_at: z.string().optional(),
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
