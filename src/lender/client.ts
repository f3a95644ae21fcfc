import http from "node:http"
import https from "node:https"
import axios, { type AxiosInstance, type AxiosResponse } from "axios"
import type { z } from "zod"
import { errorFromResponse, LenderNetworkError, LenderResponseError } from "./errors"
import {
  issuePaths,
  captureRequestSchema,
  captureResponseSchema,
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
  apiKey: string
  apiToken: string
  /** Milliseconds before a call is abandoned. */
  timeoutMs?: number
  /** Extra tries for calls that are safe to repeat (reads), on network errors, 429 and 5xx. */
  readRetries?: number
}

/**
 * The one place that speaks HTTP to the lender's REST API: one method per endpoint, every
 * response parsed before it is read, every failure turned into a LenderError that carries
 * no credential.
 */
/** Connection errors that mean no byte of the request reached the lender. */
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"])

export class LenderClient {
  private readonly http: AxiosInstance
  private readonly apiKey: string
  private readonly readRetries: number

  constructor(config: LenderClientConfig) {
    this.apiKey = config.apiKey
    this.readRetries = config.readRetries ?? 2
    const credential = Buffer.from(`${config.apiKey}:${config.apiToken}`, "utf8").toString("base64")
    this.http = axios.create({
      baseURL: config.apiUrl.replace(/\/+$/, ""),
      timeout: config.timeoutMs ?? 15_000,
      headers: { Authorization: `Basic ${credential}`, Accept: "application/json" },
      httpAgent: new http.Agent({ keepAlive: true }),
      httpsAgent: new https.Agent({ keepAlive: true }),
      // Statuses are mapped to typed errors below; axios must not throw its own error, which
      // would carry the request headers (and so the credential) with it.
      validateStatus: () => true,
      // The raw text is parsed here so that a card number survives as digits (see parseJson).
      transformResponse: (data) => data,
      responseType: "text",
      maxRedirects: 0,
    })
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
   * POST /api/v2/instore/{GatewayReference}/capture/ (spec §4.2). Answers the parsed response on
   * HTTP 200 whatever its x_result: whether that means "captured" is the caller's decision
   * (isCaptureSuccess). Not retried: a capture is not known to be safe to repeat.
   */
  async capture(gatewayReference: string, request: CaptureRequest): Promise<CaptureResponse> {
    const operation = "capture"
    const body = captureRequestSchema.parse(request)
    const response = await this.send(operation, () =>
      this.http.post(`/api/v2/instore/${encodeURIComponent(gatewayReference)}/capture/`, body, {
        headers: { "Content-Type": "application/json" },
      })
    )
    return this.parse(operation, response, captureResponseSchema)
  }

  /** POST /api/v2/instore/{GatewayReference}/refund/ (protocol.md §5). Not retried. */
  async refund(gatewayReference: string, amount: string): Promise<RefundResponse> {
    const operation = "refund"
    const body = refundRequestSchema.parse({ AccountID: this.apiKey, Amount: amount })
    const response = await this.send(operation, () =>
      this.http.post(`/api/v2/instore/${encodeURIComponent(gatewayReference)}/refund/`, body, {
        headers: { "Content-Type": "application/json" },
      })
    )
    return this.parse(operation, response, refundResponseSchema)
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
      await delay(200 * 2 ** attempt)
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
      const reason = timedOut ? "did not answer in time" : neverSent ? "could not be reached" : "dropped the connection"
      throw new LenderNetworkError({
        code: "network",
        operation,
        maybeDone: !neverSent,
        message: neverSent
          ? `PayBright ${reason} for the ${operation}; nothing was sent, try again in a moment`
          : `PayBright ${reason} for the ${operation}; it may have been made: check the contract in the PayBright portal before trying again`,
      })
    }
  }

  private parse<S extends z.ZodType>(operation: string, response: AxiosResponse<string>, schema: S): z.output<S> {
    const body = parseJson(response.data)
    if (response.status < 200 || response.status > 299) {
      throw errorFromResponse(operation, response.status, body)
    }
    const parsed = schema.safeParse(body)
    if (!parsed.success) {
      const fields = issuePaths(parsed.error)
      throw new LenderResponseError({
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

function delay(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
