import { timingSafeEqual } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { z } from "zod"
import { formatAmount, parseAmount } from "../../../lib/texts/amount"
import { captureRequestSchema, issuePaths, refundRequestSchema, type CaptureRequest } from "../schemas"
import type { Account } from "./accounts"
import { deliverFault, type FaultAnswers } from "./fault-delivery"
import { actsBeforeFault, type Fault, type FaultQueue, type Operation } from "./faults"
import { basicCredentials, lenderTimestamp, readJson, sendJson, sendText } from "./http"
import { LedgerError, type Contract, type Ledger } from "./ledger"
import type { SimulatorLogger } from "./logger"
import { cardResponseJson } from "./virtual-card"

export type { Operation }

/**
 * The next call of `operation` on a contract answers `status` with `message`, once. For capture,
 * status 200 answers HTTP 200 with x_result "Failed": the spec's "200 but not success" (§7).
 */
export type InjectedFailure = { operation: Operation; status: number; message: string }

export const injectedFailureSchema = z
  .object({
    operation: z.enum(["capture", "refund", "card"]),
    status: z.number().int().min(200).max(599),
    message: z.string().min(1).max(500),
  })
  .strict()

type CaptureAnswer = Record<string, string>

/**
 * The lender's REST API (spec §4, protocol.md §5): the virtual card, in-store capture and
 * in-store refund, each behind HTTP Basic auth with the merchant's API key and token.
 */
export class RestApi {
  private readonly failures = new Map<string, InjectedFailure>()

  constructor(
    private readonly accounts: readonly Account[],
    private readonly ledger: Ledger,
    private readonly faults: FaultQueue,
    private readonly settings: () => { captureResult: string; apiLatencyMs: number; cardLatencyMs: number },
    private readonly logger: SimulatorLogger
  ) {}

  /** Arms a one-time failure; throws for an unknown contract or an invalid failure, so a typo in a test fails loudly. */
  failNext(gatewayReference: string, failure: InjectedFailure) {
    const parsed = injectedFailureSchema.safeParse(failure)
    if (!parsed.success) {
      throw new LedgerError(400, `invalid failure: ${issuePaths(parsed.error).join(", ")}`)
    }
    if (!this.ledger.get(gatewayReference)) {
      throw new LedgerError(404, `no contract ${gatewayReference}`)
    }
    this.failures.set(failureKey(gatewayReference, parsed.data.operation), parsed.data)
  }

  /** Disarms every failure armed on a contract. */
  disarm(gatewayReference: string): void {
    for (const id of [...this.failures.keys()]) {
      if (id.startsWith(failureKeyPrefix(gatewayReference))) this.failures.delete(id)
    }
  }

  /** GET /api/vcn/pan (spec §4.1). */
  async virtualCard(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (this.resetBeforeRead(req, query.get("orderNumber") ?? "", "card")) return
    const cardLatency = this.settings().cardLatencyMs
    if (cardLatency > 0) await new Promise((resolve) => setTimeout(resolve, cardLatency))
    const account = this.authenticate(req, res)
    if (!account) return
    const apiKey = query.get("merchantApiKey")
    const orderNumber = query.get("orderNumber")
    if (!apiKey || !orderNumber) {
      const missing = [!apiKey && "merchantApiKey", !orderNumber && "orderNumber"].filter(Boolean).join(", ")
      return sendJson(res, 400, { message: `Missing query parameters: ${missing}` })
    }
    if (apiKey !== account.apiKey) {
      return sendJson(res, 401, { message: "merchantApiKey does not match the Authorization credentials" })
    }
    const contract = this.contractOf(account, orderNumber)
    if (!contract) return notFound(res, orderNumber)
    if (contract.status === "VOIDED") {
      // The void cancels the card with the loan: there is no card left to show.
      return sendJson(res, 404, {
        message: `The virtual card of contract ${orderNumber} was cancelled: the contract was voided`,
      })
    }
    const failure = this.take(contract, "card")
    if (failure) return sendJson(res, failure.status, { message: failure.message })
    const fault = this.faults.take(contract.gatewayReference, "card")
    // Written as text: the PAN must not pass through a JS number (see cardResponseJson).
    const card = cardResponseJson(contract.card)
    if (fault && fault.kind !== "echo_mismatch") {
      const withoutCvv = card.replace(/"cvv":\d+,/, "")
      return this.deliverFault(req, res, fault, { ok: card, missing: withoutCvv, mismatched: card })
    }
    sendText(res, 200, card, "application/json")
  }

  /** POST /api/v2/instore/{GatewayReference}/capture/ (spec §4.2). */
  async capture(req: IncomingMessage, res: ServerResponse, gatewayReference: string) {
    await this.latency()
    if (this.resetBeforeRead(req, gatewayReference, "capture")) return
    const account = this.authenticate(req, res)
    if (!account) return
    const body = await readJson(req)
    const parsed = captureRequestSchema.safeParse(body)
    if (!parsed.success) {
      const echo = echoFields(body, gatewayReference)
      return sendJson(res, 400, {
        ...echo,
        x_result: "Failed",
        x_message: `Invalid fields: ${issuePaths(parsed.error).join(", ")}`,
      })
    }
    const request = parsed.data
    const answer = (result: string, message: string) => captureAnswer(request, gatewayReference, result, message)
    if (request.x_account_id !== account.apiKey) {
      return sendJson(res, 401, answer("Failed", "x_account_id does not match the Authorization credentials"))
    }
    const contract = this.contractOf(account, gatewayReference)
    if (!contract) {
      return sendJson(res, 404, answer("Failed", `No contract ${gatewayReference} for this merchant`))
    }
    const failure = this.take(contract, "capture")
    if (failure) {
      this.logger.info(`capture on ${gatewayReference}: injected failure ${failure.status}`)
      return sendJson(res, failure.status, answer("Failed", failure.message))
    }
    const fault = this.faults.take(gatewayReference, "capture")
    if (fault && !actsBeforeFault(fault.kind)) {
      return this.deliverFault(req, res, fault)
    }
    // A strict lender: the capture names the order by the reference its application carried.
    const mismatched = [
      request.x_reference !== contract.reference &&
        `x_reference must be ${contract.reference}, the reference the contract was opened with`,
      request.x_currency !== contract.currency && `x_currency must be ${contract.currency}, the contract's currency`,
      request.x_test !== contract.test && `x_test must be ${contract.test}, as the contract was created`,
    ].filter((problem): problem is string => !!problem)
    if (mismatched.length > 0) {
      return sendJson(res, 400, answer("Failed", mismatched.join("; ")))
    }
    try {
      this.ledger.capture(contract, parseAmount(request.x_amount))
    } catch (error) {
      if (error instanceof LedgerError) return sendJson(res, error.status, answer("Failed", error.message))
      throw error
    }
    const success = answer(this.settings().captureResult, "Captured")
    this.logger.info(`capture on ${gatewayReference}: ${success.x_amount} ${success.x_currency} (${contract.status})`)
    if (fault) {
      const { x_amount: _dropped, ...missing } = success
      const mismatched = { ...success, x_amount: formatAmount(parseAmount(success.x_amount) + 100n) }
      return this.deliverFault(req, res, fault, {
        ok: JSON.stringify(success),
        missing: JSON.stringify(missing),
        mismatched: JSON.stringify(mismatched),
      })
    }
    sendJson(res, 200, success)
  }

  /** POST /api/v2/instore/{GatewayReference}/refund/ (protocol.md §5). */
  async refund(req: IncomingMessage, res: ServerResponse, gatewayReference: string) {
    await this.latency()
    if (this.resetBeforeRead(req, gatewayReference, "refund")) return
    const account = this.authenticate(req, res)
    if (!account) return
    const parsed = refundRequestSchema.safeParse(await readJson(req))
    if (!parsed.success) {
      return sendJson(res, 400, { message: `Invalid fields: ${issuePaths(parsed.error).join(", ")}` })
    }
    if (parsed.data.AccountID !== account.apiKey) {
      return sendJson(res, 401, { message: "AccountID does not match the Authorization credentials" })
    }
    const contract = this.contractOf(account, gatewayReference)
    if (!contract) return notFound(res, gatewayReference)
    const failure = this.take(contract, "refund")
    if (failure) return sendJson(res, failure.status, { message: failure.message })
    const fault = this.faults.take(gatewayReference, "refund")
    if (fault && !actsBeforeFault(fault.kind)) {
      return this.deliverFault(req, res, fault)
    }
    const amount = parseAmount(parsed.data.Amount)
    try {
      this.ledger.refund(contract, amount)
    } catch (error) {
      if (error instanceof LedgerError) return sendJson(res, error.status, { message: error.message })
      throw error
    }
    this.logger.info(`refund on ${gatewayReference}: ${formatAmount(amount)}`)
    const today = usDate(new Date())
    const success = { message: "success", Amount: formatAmount(amount), CreatedDate: today, ProcessingDate: today }
    if (fault) {
      const { Amount: _dropped, ...missing } = success
      return this.deliverFault(req, res, fault, {
        ok: JSON.stringify(success),
        missing: JSON.stringify(missing),
        mismatched: JSON.stringify({ ...success, Amount: formatAmount(amount + 100n) }),
      })
    }
    sendJson(res, 200, success)
  }

  /** A connection reset before the request is read: the lender never sees it. */
  private resetBeforeRead(req: IncomingMessage, gatewayReference: string, operation: Operation): boolean {
    if (!this.faults.resetsBeforeRead(gatewayReference, operation)) return false
    this.faults.take(gatewayReference, operation)
    this.logger.info(`${operation} on ${gatewayReference}: injected reset before the request was read`)
    req.socket.destroy()
    return true
  }

  private deliverFault(req: IncomingMessage, res: ServerResponse, fault: Fault, answers?: FaultAnswers) {
    return deliverFault(req, res, fault, this.logger, answers)
  }

  private authenticate(req: IncomingMessage, res: ServerResponse): Account | undefined {
    const credentials = basicCredentials(req)
    const account =
      credentials &&
      this.accounts.find(
        (candidate) => candidate.apiKey === credentials.apiKey && sameSecret(candidate.apiToken, credentials.apiToken)
      )
    if (!account) {
      sendJson(res, 401, { message: "Authorization: Basic credentials are missing or not valid" })
    }
    return account
  }

  // Another merchant's contract answers as unknown, so as not to reveal that it exists.
  private contractOf(account: Account, gatewayReference: string): Contract | undefined {
    const contract = this.ledger.get(gatewayReference)
    return contract && contract.accountId === account.apiKey ? contract : undefined
  }

  private take(contract: Contract, operation: Operation): InjectedFailure | undefined {
    const key = failureKey(contract.gatewayReference, operation)
    const failure = this.failures.get(key)
    this.failures.delete(key)
    return failure
  }

  private async latency() {
    const ms = this.settings().apiLatencyMs
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms))
  }
}

function failureKey(gatewayReference: string, operation: Operation) {
  return `${failureKeyPrefix(gatewayReference)}${operation}`
}

function failureKeyPrefix(gatewayReference: string) {
  return `${gatewayReference}\n`
}

function notFound(res: ServerResponse, reference: string) {
  sendJson(res, 404, { message: `No contract ${reference} for this merchant` })
}

/** The response of spec §2.3: x_test as the string "true"/"false", x_amount with two decimals. */
function captureAnswer(
  request: CaptureRequest,
  gatewayReference: string,
  result: string,
  message: string
): CaptureAnswer {
  return {
    x_account_id: request.x_account_id,
    x_reference: request.x_reference,
    x_currency: request.x_currency,
    x_test: String(request.x_test),
    x_amount: formatAmount(parseAmount(request.x_amount)),
    x_gateway_reference: gatewayReference,
    x_timestamp: lenderTimestamp(),
    x_result: result,
    x_message: message,
  }
}

// An invalid body still gets the response's shape, with whatever of it can be echoed.
function echoFields(body: unknown, gatewayReference: string): Record<string, string> {
  const record = body && typeof body === "object" ? (body as Record<string, unknown>) : {}
  const echo: Record<string, string> = {}
  for (const name of ["x_account_id", "x_reference", "x_currency", "x_test", "x_amount"]) {
    const value = record[name]
    if (typeof value === "string" || typeof value === "boolean") echo[name] = String(value)
  }
  return { ...echo, x_gateway_reference: gatewayReference, x_timestamp: lenderTimestamp() }
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected, "utf8")
  const b = Buffer.from(given, "utf8")
  return a.length === b.length && timingSafeEqual(a, b)
}

/** MM/DD/YYYY, as in the lender's refund sample (05/06/2021). */
function usDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, "0")
  return `${two(date.getUTCMonth() + 1)}/${two(date.getUTCDate())}/${date.getUTCFullYear()}`
}
