import { normalizeAmount, sameAmount } from "../../lib/texts/amount"
import { LenderDeclinedError, LenderError, LenderResponseError } from "../errors"
import { stringFields } from "./evidence"
import { forLog } from "../../lib/texts/log-text"
import {
  completedOrderManagementAnswerSchema,
  issuePaths,
  orderManagementAnswerSchema,
  orderManagementOutcome,
  orderManagementRequestSchema,
  type CompletedOrderManagementAnswer,
} from "./schemas"
import { signFields, verifySignature } from "./signing"

/** The order-management call's path on the checkout host (protocol.md §1, §6). */
export const ORDER_MANAGEMENT_PATH = "/checkout/api2.aspx"

/** What a void names: the approved, never-captured contract's application and its whole amount. */
export type VoidRequest = {
  /** The application's x_reference. */
  reference: string
  /** The authorized amount: there are no partial voids (protocol.md §6). At most two decimals. */
  amount: string
  currency: string
  test: boolean
  /** Where the lender also posts the signed result, when given. */
  callbackUrl?: string
}

/** The lender's answer to a void that is done: its signed fields, as strings, kept as evidence. */
export type VoidAnswer = CompletedOrderManagementAnswer

const OPERATION = "void"

/**
 * The signed JSON body of a void: every value a plain JSON string (protocol.md §8 q3), the
 * amount with two decimals, `x_url_callback` only when given. Throws a `refused` LenderError,
 * naming the fields, when the request cannot be sent as it is: nothing has left then.
 */
export function voidRequestBody(input: {
  accountId: string
  apiToken: string
  gatewayReference: string
  request: VoidRequest
}): Record<string, string> {
  const { request } = input
  let amount: string
  try {
    amount = normalizeAmount(request.amount)
  } catch {
    amount = request.amount
  }
  const body = signFields(
    {
      x_account_id: input.accountId,
      x_amount: amount,
      x_currency: request.currency,
      x_reference: request.reference,
      x_gateway_reference: input.gatewayReference,
      x_transaction_type: OPERATION,
      x_test: request.test ? "true" : "false",
      x_url_callback: request.callbackUrl,
    },
    input.apiToken
  )
  const checked = orderManagementRequestSchema.safeParse(body)
  if (!checked.success) {
    throw new LenderError({
      operation: OPERATION,
      outcome: "refused",
      code: "invalid_request",
      message: `The void was not sent: invalid fields ${issuePaths(checked.error).join(", ")}`,
    })
  }
  return body
}

/**
 * Reads the lender's HTTP 200 answer to a void: form-urlencoded `x_` pairs whose signature must
 * verify over exactly the fields received. Answers the evidence when the void is done; throws a
 * LenderDeclinedError (refused) when the lender says `failed`, and a LenderResponseError (in
 * doubt) for anything it cannot trust. No message carries `x_signature` or the token.
 */
export function voidAnswer(text: string, sent: Record<string, string>, apiToken: string): VoidAnswer {
  const fields = formFields(text)
  const evidence = fields && xFields(fields)
  const inDoubt = (code: string, said: string) =>
    new LenderResponseError({
      operation: OPERATION,
      status: 200,
      code,
      evidence,
      message: `PayBright answered the void ${said}`,
    })
  if (!fields) {
    throw inDoubt("bad_response", "with a body that is not a form (a field appears twice)")
  }
  const parsed = orderManagementAnswerSchema.safeParse(fields)
  if (!parsed.success) {
    throw inDoubt("bad_response", `with an unexpected body (fields: ${issuePaths(parsed.error).join(", ")})`)
  }
  if (!verifySignature(fields, apiToken)) {
    throw inDoubt("bad_signature", "with a signature that does not verify")
  }
  const answer = parsed.data
  const outcome = orderManagementOutcome(answer)
  if (outcome === "failed") {
    throw new LenderDeclinedError({
      operation: OPERATION,
      status: 200,
      code: "not_voided",
      lenderMessage: answer.x_message,
      evidence,
      message: `PayBright answered the void with result ${forLog(answer.x_result)}${answer.x_message ? `: ${forLog(answer.x_message, 300)}` : ""}`,
    })
  }
  if (outcome === "unknown") {
    throw inDoubt("unknown_result", `with result ${forLog(answer.x_result)}`)
  }
  const completed = completedOrderManagementAnswerSchema.safeParse(fields)
  if (!completed.success) {
    throw inDoubt("bad_response", `with an unexpected body (fields: ${issuePaths(completed.error).join(", ")})`)
  }
  const differing = echoesDiffering(completed.data, sent)
  if (differing.length > 0) {
    throw inDoubt("echo_mismatch", `with ${differing.join(", ")} other than sent`)
  }
  return completed.data
}

/** The names of the echoes of a completed answer that differ from the request. */
function echoesDiffering(answer: VoidAnswer, sent: Record<string, string>): string[] {
  return [
    answer.x_gateway_reference !== sent.x_gateway_reference && "x_gateway_reference",
    !sameAmount(answer.x_amount, sent.x_amount) && "x_amount",
    answer.x_currency !== sent.x_currency && "x_currency",
    answer.x_account_id !== sent.x_account_id && "x_account_id",
    answer.x_test.trim().toLowerCase() !== sent.x_test && "x_test",
    answer.x_reference !== undefined && answer.x_reference !== sent.x_reference && "x_reference",
    answer.x_transaction_type !== undefined &&
      answer.x_transaction_type.trim().toLowerCase() !== sent.x_transaction_type &&
      "x_transaction_type",
  ].filter((field): field is string => !!field)
}

/** A form body as a flat record, or undefined when a field repeats (which of the two was signed?). */
export function formFields(text: string | undefined): Record<string, string> | undefined {
  const fields: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(text ?? "")) {
    if (Object.prototype.hasOwnProperty.call(fields, name)) return undefined
    fields[name] = value
  }
  return fields
}

// Only the lender's `x_` fields are evidence; anything else in the body is noise.
function xFields(fields: Record<string, string>): Record<string, string> {
  return stringFields(Object.fromEntries(Object.entries(fields).filter(([name]) => name.startsWith("x_"))))
}
