import http from "node:http"
import https from "node:https"
import axios, { type AxiosInstance, type AxiosResponse } from "axios"
import type { z } from "zod"
import { sameAmount } from "../../lib/texts/amount"
import { lenderFact, LenderDeclinedError, LenderNetworkError, LenderResponseError } from "../errors"
import { errorFromResponse } from "./errors"
import { stringFields } from "./evidence"
import {
  formFields,
  ORDER_MANAGEMENT_PATH,
  voidAnswer,
  voidRequestBody,
  type VoidAnswer,
  type VoidRequest,
} from "./order-management"
import {
  issuePaths,
  captureRequestSchema,
  captureResponseSchema,
  isCaptureSuccess,
  isRefundSuccess,
  refundRequestSchema,
  refundResponseSchema,
  virtualCardSchema,
  type CaptureRequest,
  type CaptureResponse,
  type RefundResponse,
  type VirtualCard,
} from "./schemas"

export type LenderClientConfig = {
  /** Base of the REST API, e.g. https://sandbox.api.paybright.com (the client appends /api/...). */
  apiUrl: string
  /**
   * Base of the hosted application host, e.g. https://sandbox.paybright.com: the order-management
   * call lives there (the client appends /checkout/api2.aspx).
   */
  checkoutUrl: string
  apiKey: string
  apiToken: string
  /** Milliseconds before a call is abandoned. */
  timeoutMs?: number
  /** Extra tries for calls that are safe to repeat (reads), on network errors, 429 and 5xx. */
  readRetries?: number
}

/** Extra tries of a read that is safe to repeat (the virtual card), on network errors, 429 and 5xx. */
export const LENDER_READ_RETRIES = 2

/** The pause before a read's next try: 200 ms, then 400 ms. */
function readBackoffMs(attempt: number): number {
  return 200 * 2 ** attempt
}

/**
 * The longest a call to the lender can take, its tries included: a capture, refund or void is
 * tried once; a read up to `retries` more times, with its pauses. The payment's lock is held at
 * least this long (src/workflows/lock-lease.ts).
 */
export function longestLenderCallMs(timeoutMs: number, retries = 0): number {
  let pauses = 0
  for (let attempt = 0; attempt < retries; attempt++) pauses += readBackoffMs(attempt)
  return (retries + 1) * timeoutMs + pauses
}

/** Connection errors that mean no byte of the request reached the lender. */
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"])

/**
 * How long a connection to the lender is kept idle for the next call. Without a limit, Node's agent
 * keeps an idle keep-alive connection until the lender closes it, and a capture written onto one
 * the lender is closing at that moment fails as "dropped": in doubt, for a person, though the
 * lender never read it. With one, the agent also closes an idle connection a second before the
 * timeout the lender announces in its Keep-Alive header.
 */
const IDLE_CONNECTION_MS = 4_000

/**
 * The one place that speaks HTTP to the lender's REST API and order-management call: one method
 * per endpoint, every response parsed before it is read, every failure turned into a LenderError
 * that carries no credential.
 */

export class LenderClient {
  /** The REST API host, every request with the merchant's Basic credential. */
  private readonly http: AxiosInstance
  /** The checkout host's order-management call, authenticated by its signature alone: no credential header. */
  private readonly checkout: AxiosInstance
  private readonly apiKey: string
  private readonly apiToken: string
  private readonly readRetries: number

  constructor(config: LenderClientConfig) {
    this.apiKey = config.apiKey
    this.apiToken = config.apiToken
    this.readRetries = config.readRetries ?? LENDER_READ_RETRIES
    const credential = Buffer.from(`${config.apiKey}:${config.apiToken}`, "utf8").toString("base64")
    const shared = {
      timeout: config.timeoutMs ?? 15_000,
      httpAgent: new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
      httpsAgent: new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
      // Statuses are mapped to typed errors below; axios must not throw its own error, which
      // would carry the request headers (and so the credential) with it.
      validateStatus: () => true,
      // The raw text is parsed here so that a card number survives as digits (see parseJson).
      transformResponse: (data: unknown) => data,
      responseType: "text" as const,
      maxRedirects: 0,
    }
    this.http = axios.create({
      ...shared,
      baseURL: config.apiUrl.replace(/\/+$/, ""),
      headers: { Authorization: `Basic ${credential}`, Accept: "application/json" },
    })
    this.checkout = axios.create({ ...shared, baseURL: config.checkoutUrl.replace(/\/+$/, "") })
  }

  /** GET /api/vcn/pan: the virtual card issued for a completed contract (spec §4.1). Safe to repeat. */
  async getVirtualCard(contractNumber: string): Promise<VirtualCard> {
    const operation = "virtual card retrieval"
    const response = await this.withRetries(operation, () =>
      this.http.get("/api/vcn/pan", { params: { merchantApiKey: this.apiKey, orderNumber: contractNumber } })
    )
    return this.parse(operation, response, virtualCardSchema)
  }

  /**
   * POST /api/v2/instore/{GatewayReference}/capture/ (spec §4.2). Answers the lender's evidence
   * only when the capture is done: HTTP 200, a success x_result, and every echo equal to what was
   * sent. Anything else throws a LenderError whose `outcome` says refused or in doubt. Never
   * retried: a capture is not known to be safe to repeat.
   */
  async capture(gatewayReference: string, request: CaptureRequest): Promise<CaptureResponse> {
    const operation = "capture"
    const body = captureRequestSchema.parse(request)
    const response = await this.send(operation, () =>
      this.http.post(`/api/v2/instore/${encodeURIComponent(gatewayReference)}/capture/`, body, {
        headers: { "Content-Type": "application/json" },
      })
    )
    const answer = this.parse(operation, response, captureResponseSchema)
    const evidence = captureEvidence(answer)
    if (!isCaptureSuccess(answer)) {
      throw new LenderDeclinedError({
        operation,
        status: response.status,
        code: "not_captured",
        lenderMessage: answer.x_message || answer.x_result,
        evidence,
        message: `PayBright answered the capture with result ${answer.x_result}${answer.x_message ? `: ${answer.x_message}` : ""}`,
      })
    }
    const differing = [
      !sameAmount(answer.x_amount, body.x_amount) && "x_amount",
      answer.x_gateway_reference !== gatewayReference && "x_gateway_reference",
      answer.x_currency !== body.x_currency && "x_currency",
      answer.x_account_id !== body.x_account_id && "x_account_id",
      answer.x_test.toLowerCase() !== String(body.x_test) && "x_test",
    ].filter((field): field is string => !!field)
    if (differing.length > 0) {
      throw new LenderResponseError({
        operation,
        status: response.status,
        code: "echo_mismatch",
        evidence,
        message: `PayBright answered the capture with ${differing.join(", ")} other than sent`,
      })
    }
    return answer
  }

  /**
   * POST /api/v2/instore/{GatewayReference}/refund/ (protocol.md §5). Done only on HTTP 200 with
   * message "success" and the amount sent echoed back. Never retried: the lender documents no
   * idempotency key for refunds.
   */
  async refund(gatewayReference: string, amount: string): Promise<RefundResponse> {
    const operation = "refund"
    const body = refundRequestSchema.parse({ AccountID: this.apiKey, Amount: amount })
    const response = await this.send(operation, () =>
      this.http.post(`/api/v2/instore/${encodeURIComponent(gatewayReference)}/refund/`, body, {
        headers: { "Content-Type": "application/json" },
      })
    )
    const answer = this.parse(operation, response, refundResponseSchema)
    const evidence = stringFields(answer)
    if (!isRefundSuccess(answer)) {
      throw new LenderDeclinedError({
        operation,
        status: response.status,
        code: "not_refunded",
        lenderMessage: answer.message,
        evidence,
        message: `PayBright answered the refund with ${answer.message}`,
      })
    }
    if (answer.Amount === undefined || !sameAmount(answer.Amount, amount)) {
      throw new LenderResponseError({
        operation,
        status: response.status,
        code: "echo_mismatch",
        evidence,
        message: `PayBright answered the refund with Amount ${answer.Amount ?? "missing"}, not ${amount}`,
      })
    }
    return answer
  }

  /**
   * Voids an approved, never-captured contract through the order-management call (protocol.md
   * §6): `POST {checkoutUrl}/checkout/api2.aspx`, a signed JSON body, no Authorization header.
   * Answers the lender's signed evidence only when the void is done (HTTP 200, a valid signature,
   * `completed`, every echo equal to what was sent). Anything else throws a LenderError whose
   * `outcome` says refused or in doubt. Never retried: a void cannot be taken back.
   */
  async voidAuthorization(gatewayReference: string, request: VoidRequest): Promise<VoidAnswer> {
    const operation = "void"
    const body = voidRequestBody({ accountId: this.apiKey, apiToken: this.apiToken, gatewayReference, request })
    const response = await this.send(operation, () =>
      this.checkout.post(ORDER_MANAGEMENT_PATH, body, {
        headers: { "Content-Type": "application/json", Accept: "application/x-www-form-urlencoded" },
      })
    )
    if (response.status !== 200) {
      const contentType = String(response.headers?.["content-type"] ?? "")
      const said = contentType.includes("x-www-form-urlencoded") ? formFields(response.data) : parseJson(response.data)
      throw errorFromResponse(operation, response.status, said, retryAfterOf(response))
    }
    return voidAnswer(response.data, body, this.apiToken)
  }

  private async withRetries(operation: string, call: () => Promise<AxiosResponse<string>>) {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await this.send(operation, call)
        const retryable = response.status === 429 || response.status >= 500
        if (!retryable || attempt >= this.readRetries) {
          return response
        }
      } catch (error) {
        if (!(error instanceof LenderNetworkError) || attempt >= this.readRetries) {
          throw error
        }
      }
      await delay(readBackoffMs(attempt))
    }
  }

  private async send(operation: string, call: () => Promise<AxiosResponse<string>>) {
    try {
      return await call()
    } catch (error) {
      const code = axios.isAxiosError(error) ? error.code : undefined
      // Refused or unresolved: the request never left. Anything else may have reached the lender.
      const neverSent = code !== undefined && NEVER_SENT.has(code)
      const timedOut = code === "ECONNABORTED" || code === "ETIMEDOUT"
      throw new LenderNetworkError({
        code: timedOut ? "timeout" : "network",
        operation,
        maybeDone: !neverSent,
        message: "",
        said: lenderFact(timedOut ? "timeout" : neverSent ? "unreachable" : "dropped", operation),
      })
    }
  }

  private parse<S extends z.ZodType>(operation: string, response: AxiosResponse<string>, schema: S): z.output<S> {
    const body = parseJson(response.data)
    if (response.status < 200 || response.status > 299) {
      throw errorFromResponse(operation, response.status, body, retryAfterOf(response))
    }
    const parsed = schema.safeParse(body)
    if (!parsed.success) {
      const fields = issuePaths(parsed.error)
      // Virtual-card answers hold the card: only capture and refund answers are kept as evidence.
      const evidence = operation === "capture" || operation === "refund" ? stringFields(body) : undefined
      throw new LenderResponseError({
        evidence,
        code: "bad_response",
        operation,
        status: response.status,
        message: `PayBright answered the ${operation} with an unexpected body (fields: ${fields.join(", ")})`,
      })
    }
    return parsed.data
  }
}

/**
 * JSON.parse loses digits of integers above 2^53, and the spec types the card number as an
 * integer: quote the card's numeric fields before parsing so they arrive as exact digit strings.
 */
export function parseJson(text: string | undefined): unknown {
  if (!text) {
    return undefined
  }
  const quoted = text.replace(/"(pan|cvv|expiration)"\s*:\s*(\d+)/g, '"$1":"$2"')
  try {
    return JSON.parse(quoted)
  } catch {
    return text
  }
}

/** The capture answer's fields, as the record keeps them. */
function captureEvidence(answer: CaptureResponse): Record<string, string> {
  return stringFields(answer)
}

/** A 429's Retry-After header, when the lender sent one. */
function retryAfterOf(response: AxiosResponse<string>): string | null {
  const retryAfter = response.headers?.["retry-after"]
  return typeof retryAfter === "string" ? retryAfter : null
}

function delay(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
