import { z } from "zod"
import type { ApplicationOutcome } from "../lender"
import { isAmount } from "../../lib/texts/amount"

/**
 * Zod schemas for everything that crosses the wire to or from the lender.
 * Remote data is parsed with these before any of it is read.
 */

/** The names of the fields a parse found wrong, never their values (a card response holds the PAN). */
export function issuePaths(error: z.ZodError): string[] {
  return [...new Set(error.issues.map((issue) => issue.path.join(".") || "(body)"))]
}

const amountString = z.string().refine(isAmount, "must be a decimal amount with at most two decimals")
const currencyCode = z.string().regex(/^[A-Z]{3}$/, "must be a three-letter ISO-4217 code")
const flagString = z.enum(["true", "false"])

/** The signed fields a browser posts to the hosted application (protocol.md §2). */
export const applicationRequestSchema = z
  .object({
    x_account_id: z.string().min(1),
    x_amount: amountString,
    x_currency: currencyCode,
    x_reference: z.string().min(1).max(128),
    x_shop_country: z.string().min(2),
    x_shop_name: z.string().min(1),
    x_test: flagString,
    x_url_callback: z.string().url(),
    x_url_complete: z.string().url(),
    x_url_cancel: z.string().url(),
    x_signature: z.string().regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex digits"),
  })
  .catchall(z.string())
export type ApplicationRequest = z.infer<typeof applicationRequestSchema>

/**
 * The result the lender sends to `x_url_callback` (form POST) and `x_url_complete` (query string).
 * Unknown `x_` fields are kept: they are part of what the signature covers.
 */
export const applicationResultSchema = z
  .object({
    x_account_id: z.string().min(1),
    x_reference: z.string().min(1),
    x_currency: z.string().min(1),
    x_test: z.string().min(1),
    x_amount: z.string().min(1),
    x_gateway_reference: z.string().min(1),
    x_timestamp: z.string().min(1),
    x_result: z.string().min(1),
    x_signature: z.string().min(1),
    x_transaction_type: z.string().optional(),
    x_message: z.string().optional(),
  })
  .catchall(z.string())
export type ApplicationResult = z.infer<typeof applicationResultSchema>

/** The outcome a result's x_result names, compared without regard to case (protocol.md §2). */
export function applicationOutcome(result: Pick<ApplicationResult, "x_result">): ApplicationOutcome {
  const value = result.x_result.trim().toLowerCase()
  return value === "completed" || value === "pending" || value === "failed" ? value : "unknown"
}

// The spec types pan, cvv and expiration as integers but requires leading zeros to be kept:
// accept numbers or strings, and put the zeros back.
const digits = (length?: number) =>
  z
    .union([z.string(), z.number().int().nonnegative()])
    .transform((value) => String(value).trim())
    .transform((value) => (length ? value.padStart(length, "0") : value))
    .refine((value) => /^\d+$/.test(value) && (!length || value.length === length), {
      message: length ? `must be ${length} digits` : "must be digits",
    })

/** The virtual card for a contract (spec §2.1). */
export const virtualCardSchema = z.object({
  card_token: z.string().min(1),
  created: z.string().min(1),
  expiration: digits(4).refine((mmyy) => Number(mmyy.slice(0, 2)) >= 1 && Number(mmyy.slice(0, 2)) <= 12, {
    message: "must be MMYY with a month from 01 to 12",
  }),
  cvv: digits(3),
  pan: digits().refine((pan) => pan.length >= 12 && pan.length <= 19, { message: "must be 12 to 19 digits" }),
  cardholder_name: z.string().min(1),
  billing_address: z.object({
    address1: z.string(),
    city: z.string(),
    state: z.string(),
    postal_code: z.string(),
    country: z.string(),
  }),
})
export type VirtualCard = z.infer<typeof virtualCardSchema>

/** In-store capture request body (spec §2.2). */
export const captureRequestSchema = z.object({
  x_account_id: z.string().min(1),
  x_amount: amountString,
  x_reference: z.string().min(1),
  x_currency: currencyCode,
  x_test: z.boolean(),
})
export type CaptureRequest = z.infer<typeof captureRequestSchema>

/** In-store capture response body (spec §2.3). `x_test` is a string here, a boolean in the request. */
export const captureResponseSchema = z
  .object({
    x_account_id: z.string(),
    x_reference: z.string(),
    x_currency: z.string(),
    x_test: z.union([z.string(), z.boolean()]).transform(String),
    x_amount: z.string(),
    x_gateway_reference: z.union([z.string(), z.number()]).transform(String),
    x_timestamp: z.string(),
    x_result: z.string(),
    x_message: z.string().optional().default(""),
  })
  .passthrough()
export type CaptureResponse = z.infer<typeof captureResponseSchema>

/**
 * The docs call the success indicator `success`; the spec's sample answers `Completed`.
 * Both mean captured, in any case; anything else means not captured (spec §4.2 rule 2).
 */
export function isCaptureSuccess(response: Pick<CaptureResponse, "x_result">): boolean {
  const value = response.x_result.trim().toLowerCase()
  return value === "success" || value === "completed"
}

/** In-store refund request body (protocol.md §5). */
export const refundRequestSchema = z.object({
  AccountID: z.string().min(1),
  Amount: amountString,
})

/** In-store refund response: success is HTTP 200 with `message: "success"` (protocol.md §5). */
export const refundResponseSchema = z
  .object({
    message: z.string(),
    Amount: z.union([z.string(), z.number()]).transform(String).optional(),
    CreatedDate: z.string().optional(),
  })
  .passthrough()
export type RefundResponse = z.infer<typeof refundResponseSchema>

export function isRefundSuccess(response: Pick<RefundResponse, "message">): boolean {
  return response.message.trim().toLowerCase() === "success"
}

/** The operations of the order-management call, picked by `x_transaction_type` (protocol.md §6). */
export const ORDER_MANAGEMENT_OPERATIONS = ["capture", "void", "refund"] as const

/**
 * The order-management call's JSON body (protocol.md §6): every value a plain JSON string
 * (§8 q3), signed over the other `x_` fields as in §3. No Authorization header goes with it.
 */
export const orderManagementRequestSchema = z
  .object({
    x_account_id: z.string().min(1),
    x_amount: amountString,
    x_currency: currencyCode,
    x_reference: z.string().min(1).max(128),
    x_gateway_reference: z.string().min(1),
    x_transaction_type: z.enum(ORDER_MANAGEMENT_OPERATIONS),
    x_test: flagString,
    x_url_callback: z.string().url().optional(),
    x_signature: z.string().regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex digits"),
  })
  .catchall(z.string())
export type OrderManagementRequest = z.infer<typeof orderManagementRequestSchema>

/** The fields a completed answer echoes from the request; the client compares each with what it sent. */
const echoedFields = {
  x_account_id: z.string().min(1),
  x_amount: z.string().min(1),
  x_currency: z.string().min(1),
  x_gateway_reference: z.string().min(1),
  x_test: z.string().min(1),
}

/**
 * The order-management answer: form-urlencoded `x_` pairs, signed (protocol.md §6). A refusal
 * needs only its result and signature to be read; every other field is optional here.
 */
export const orderManagementAnswerSchema = z
  .object({
    x_result: z.string().min(1),
    x_signature: z.string().min(1),
    x_message: z.string().optional(),
    x_reference: z.string().optional(),
    x_timestamp: z.string().optional(),
    x_transaction_type: z.string().optional(),
  })
  .catchall(z.string())
export type OrderManagementAnswer = z.infer<typeof orderManagementAnswerSchema>

/** A completed answer: the same, with every echo present. */
export const completedOrderManagementAnswerSchema = orderManagementAnswerSchema.extend(echoedFields)
export type CompletedOrderManagementAnswer = z.infer<typeof completedOrderManagementAnswerSchema>

/** Results of the order-management call, compared without regard to case (protocol.md §2, §6). */
export function orderManagementOutcome(
  answer: Pick<OrderManagementAnswer, "x_result">
): "completed" | "failed" | "unknown" {
  const value = answer.x_result.trim().toLowerCase()
  return value === "completed" || value === "failed" ? value : "unknown"
}
