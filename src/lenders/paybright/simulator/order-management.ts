import type { IncomingMessage, ServerResponse } from "node:http"
import { formatAmount, parseAmount } from "../../../lib/texts/amount"
import { issuePaths, orderManagementRequestSchema, type OrderManagementRequest } from "../schemas"
import { sign, signFields, verifySignature } from "../signing"
import { findAccount, type Account } from "./accounts"
import type { CallbackSender } from "./callbacks"
import { deliverFault, type FaultAnswers } from "./fault-delivery"
import { actsBeforeFault, type FaultQueue } from "./faults"
import { lenderTimestamp, readJson, sendJson, sendText } from "./http"
import { LedgerError, type Contract, type Ledger } from "./ledger"
import type { SimulatorLogger } from "./logger"

const FORM = "application/x-www-form-urlencoded"

/**
 * The order-management call (protocol.md §6): `POST /checkout/api2.aspx`, a signed JSON body of
 * strings and no Authorization header; the answer is signed `x_` pairs, form-encoded, also posted
 * to `x_url_callback` when the request named one. The simulator supports the void of a contract
 * never captured; capture and refund over this call are refused as not supported (the REST API
 * has them).
 */
export class OrderManagement {
  constructor(
    private readonly accounts: readonly Account[],
    private readonly ledger: Ledger,
    private readonly faults: FaultQueue,
    private readonly callbacks: CallbackSender,
    private readonly settings: () => { apiLatencyMs: number },
    private readonly logger: SimulatorLogger
  ) {}

  /** POST /checkout/api2.aspx */
  async handle(req: IncomingMessage, res: ServerResponse) {
    const latency = this.settings().apiLatencyMs
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency))
    const fields = await readStringFields(req, res)
    if (!fields) return
    if (!fields.x_account_id) {
      return sendJson(res, 400, { message: "Missing fields: x_account_id" })
    }
    const account = findAccount(this.accounts, fields.x_account_id)
    if (!account) {
      return sendJson(res, 401, { message: "x_account_id is not a PayBright merchant account" })
    }
    // The signature is checked before the fields, as it covers them: a field altered on the way
    // is a signature problem, not a validation one.
    if (!verifySignature(fields, account.apiToken)) {
      return sendJson(res, 401, {
        message: "Signature problem: x_signature does not match the fields and the merchant's API token",
      })
    }
    const parsed = orderManagementRequestSchema.safeParse(fields)
    if (!parsed.success) {
      return sendJson(res, 400, { message: `Invalid fields: ${issuePaths(parsed.error).join(", ")}` })
    }
    if (parsed.data.x_transaction_type !== "void") {
      return sendJson(res, 400, {
        message: `x_transaction_type ${parsed.data.x_transaction_type} is not supported by the simulator on api2.aspx; use the in-store REST API`,
      })
    }
    await this.void(req, res, parsed.data, account)
  }

  private async void(req: IncomingMessage, res: ServerResponse, request: OrderManagementRequest, account: Account) {
    const reference = request.x_gateway_reference
    const contract = this.contractOf(account, reference)
    const fault = contract && this.faults.take(reference, "void")
    if (fault && !actsBeforeFault(fault.kind)) {
      return deliverFault(req, res, fault, this.logger)
    }
    const refusal = contract ? this.voidOrRefuse(contract, request) : `No contract ${reference} for this merchant`
    this.logger.info(`void on ${reference}: ${refusal ? `failed (${refusal})` : "voided"}`)
    const answer = signFields(voidAnswerFields(request, refusal), account.apiToken)
    // The lender posts the same result to the callback, whatever happens to this answer on its way.
    if (request.x_url_callback) {
      this.callbacks.send(request.x_url_callback, answer, "void")
    }
    if (fault) {
      return deliverFault(req, res, fault, this.logger, alteredAnswers(answer, account.apiToken))
    }
    sendText(res, 200, form(answer), FORM)
  }

  /** Voids the contract, or answers why not. */
  private voidOrRefuse(contract: Contract, request: OrderManagementRequest): string | undefined {
    // A strict lender, as for capture: the void names the contract as its application did.
    const mismatched = [
      request.x_reference !== contract.reference &&
        `x_reference must be ${contract.reference}, the reference the contract was opened with`,
      request.x_currency !== contract.currency && `x_currency must be ${contract.currency}, the contract's currency`,
      request.x_test !== String(contract.test) && `x_test must be ${contract.test}, as the contract was created`,
    ].filter((problem): problem is string => !!problem)
    if (mismatched.length > 0) {
      return mismatched.join("; ")
    }
    try {
      this.ledger.void(contract, parseAmount(request.x_amount))
      return undefined
    } catch (error) {
      if (error instanceof LedgerError) return error.message
      throw error
    }
  }

  // Another merchant's contract answers as unknown, so as not to reveal that it exists.
  private contractOf(account: Account, gatewayReference: string): Contract | undefined {
    const contract = this.ledger.get(gatewayReference)
    return contract && contract.accountId === account.apiKey ? contract : undefined
  }
}

/** The body as a flat JSON object of strings, or undefined once a 400 was answered. */
async function readStringFields(req: IncomingMessage, res: ServerResponse) {
  const body = await readJson(req)
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    sendJson(res, 400, { message: "The body must be a JSON object of x_ fields" })
    return undefined
  }
  // Strict on purpose: the lender signs text, so every value travels as a JSON string (protocol.md §8 q3).
  const notText = Object.entries(body).filter(([, value]) => typeof value !== "string")
  if (notText.length > 0) {
    sendJson(res, 400, { message: `Fields must be JSON strings: ${notText.map(([name]) => name).join(", ")}` })
    return undefined
  }
  return body as Record<string, string>
}

/** The answer's fields before signing: the request's echoes, the result, and why it failed. */
function voidAnswerFields(
  request: OrderManagementRequest,
  refusal: string | undefined
): Record<string, string | undefined> {
  return {
    x_account_id: request.x_account_id,
    x_amount: formatAmount(parseAmount(request.x_amount)),
    x_currency: request.x_currency,
    x_gateway_reference: request.x_gateway_reference,
    x_reference: request.x_reference,
    x_result: refusal ? "failed" : "completed",
    x_message: refusal,
    x_test: request.x_test,
    x_timestamp: lenderTimestamp(),
    x_transaction_type: "void",
  }
}

/** The real answer and its faulty variants, each but the broken ones signed so that only the fault shows. */
function alteredAnswers(answer: Record<string, string>, apiToken: string): FaultAnswers {
  const { x_amount: _dropped, ...missing } = answer
  const ok = form(answer)
  return {
    type: FORM,
    ok,
    missing: form(signFields(missing, apiToken)),
    mismatched: form(signFields({ ...answer, x_amount: formatAmount(parseAmount(answer.x_amount) + 100n) }, apiToken)),
    malformed: ok.slice(0, Math.floor(ok.length / 2)),
    badSignature: form({ ...answer, x_signature: sign(answer, `${apiToken}, but not quite`) }),
  }
}

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString()
}
