import type { IncomingMessage, ServerResponse } from "node:http"
import { formatAmount, parseAmount } from "../lender/amount"
import { captureRequestSchema, issuePaths, refundRequestSchema } from "../lender/schemas"
import type { Account } from "./hosted-application"
import { basicCredentials, readBody, sendJson, sendText } from "./http"
import { LedgerError, type Contract, type Ledger } from "./ledger"
import { cardResponseJson } from "./virtual-card"

export type Operation = "capture" | "refund" | "card"
export type InjectedFailure = { operation: Operation; status: number; message: string }

/**
 * The lender's REST API (spec §4, protocol.md §5): the virtual card, in-store capture and
 * in-store refund, each behind HTTP Basic auth with the merchant's API key and token.
 */
export class RestApi {
  private readonly failures = new Map<string, InjectedFailure>()

  constructor(
    private readonly accounts: () => Account[],
    private readonly ledger: Ledger,
    private readonly captureResult: () => string
  ) {}

  /** The next call of `operation` on this contract answers `status` with `message`, once. */
  failNext(gatewayReference: string, failure: InjectedFailure) {
    this.failures.set(`${gatewayReference}:${failure.operation}`, failure)
  }

  async virtualCard(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    const account = this.authenticate(req, res)
    if (!account) return
    const apiKey = query.get("merchantApiKey")
    const orderNumber = query.get("orderNumber")
    if (!apiKey || !orderNumber) {
      return sendJson(res, 400, { message: "merchantApiKey and orderNumber are required" })
    }
    if (apiKey !== account.apiKey) {
      return sendJson(res, 401, { message: "merchantApiKey does not match the credentials" })
    }
    const contract = this.contractOf(account, orderNumber, res)
    if (!contract || this.injected(contract, "card", res)) return
    sendText(res, 200, cardResponseJson(contract.card), "application/json")
  }

  async capture(req: IncomingMessage, res: ServerResponse, gatewayReference: string) {
    const account = this.authenticate(req, res)
    if (!account) return
    const parsed = captureRequestSchema.safeParse(await readJson(req))
    if (!parsed.success) {
      return sendJson(res, 400, { x_result: "Failed", x_message: `Invalid request: ${issuePaths(parsed.error).join(", ")}` })
    }
    const request = parsed.data
    if (request.x_account_id !== account.apiKey) {
      return sendJson(res, 401, { x_result: "Failed", x_message: "x_account_id does not match the credentials" })
    }
    const contract = this.contractOf(account, gatewayReference, res)
    if (!contract) return
    const failure = this.take(contract, "capture")
    const answer = (result: string, message: string) => ({
      x_account_id: account.apiKey,
      x_reference: request.x_reference,
      x_currency: request.x_currency,
      x_test: String(request.x_test),
      x_amount: formatAmount(parseAmount(request.x_amount)),
      x_gateway_reference: contract.gatewayReference,
      x_timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      x_result: result,
      x_message: message,
    })
    if (failure) {
      // Status 200 with a result that is not success is the spec's "not captured" too (§7).
      return sendJson(res, failure.status, answer("Failed", failure.message))
    }
    if (request.x_currency !== contract.currency || request.x_test !== contract.test) {
      return sendJson(res, 400, answer("Failed", "x_currency and x_test must match the contract"))
    }
    try {
      this.ledger.capture(contract, request.x_reference, parseAmount(request.x_amount))
    } catch (error) {
      if (error instanceof LedgerError) return sendJson(res, error.status, answer("Failed", error.message))
      throw error
    }
    sendJson(res, 200, answer(this.captureResult(), "Captured"))
  }

  async refund(req: IncomingMessage, res: ServerResponse, gatewayReference: string) {
    const account = this.authenticate(req, res)
    if (!account) return
    const parsed = refundRequestSchema.safeParse(await readJson(req))
    if (!parsed.success) {
      return sendJson(res, 400, { message: `Invalid request: ${issuePaths(parsed.error).join(", ")}` })
    }
    if (parsed.data.AccountID !== account.apiKey) {
      return sendJson(res, 401, { message: "AccountID does not match the credentials" })
    }
    const contract = this.contractOf(account, gatewayReference, res)
    if (!contract || this.injected(contract, "refund", res)) return
    const amount = parseAmount(parsed.data.Amount)
    try {
      this.ledger.refund(contract, amount)
    } catch (error) {
      if (error instanceof LedgerError) return sendJson(res, error.status, { message: error.message })
      throw error
    }
    const today = usDate(new Date())
    sendJson(res, 200, { message: "success", Amount: formatAmount(amount), CreatedDate: today, ProcessingDate: today })
  }

  private authenticate(req: IncomingMessage, res: ServerResponse): Account | undefined {
    const credentials = basicCredentials(req)
    const account = credentials && this.accounts().find((candidate) => candidate.apiKey === credentials.apiKey && candidate.apiToken === credentials.apiToken)
    if (!account) {
      sendJson(res, 401, { message: "Authorization: Basic credentials are missing or wrong" })
    }
    return account
  }

  private contractOf(account: Account, gatewayReference: string, res: ServerResponse): Contract | undefined {
    const contract = this.ledger.get(gatewayReference)
    if (!contract || contract.accountId !== account.apiKey) {
      sendJson(res, 404, { message: `No contract ${gatewayReference} for this merchant` })
      return undefined
    }
    return contract
  }

  private take(contract: Contract, operation: Operation): InjectedFailure | undefined {
    const key = `${contract.gatewayReference}:${operation}`
    const failure = this.failures.get(key)
    this.failures.delete(key)
    return failure
  }

  private injected(contract: Contract, operation: Operation, res: ServerResponse): boolean {
    const failure = this.take(contract, operation)
    if (failure) {
      sendJson(res, failure.status, { message: failure.message })
    }
    return !!failure
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req)
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function usDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, "0")
  return `${two(date.getUTCMonth() + 1)}/${two(date.getUTCDate())}/${date.getUTCFullYear()}`
}
