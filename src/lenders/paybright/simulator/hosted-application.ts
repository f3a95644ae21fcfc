import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { parseAmount } from "../../../lib/texts/amount"
import { applicationRequestSchema, type ApplicationRequest } from "../schemas"
import { signFields, verifySignature } from "../signing"
import { findAccount, type Account } from "./accounts"
import { applicationPage, messagePage, problemsPage } from "./application-page"
import type { CallbackSender } from "./callbacks"
import { lenderTimestamp, parseForm, readBody, redirect, sendHtml } from "./http"
import type { Ledger } from "./ledger"
import type { SimulatorLogger } from "./logger"
import type { SimulatorSettings } from "./settings"
import { issueCard } from "./virtual-card"

/** The shopper's answer on the application page. */
export type Decision = "approve" | "decline" | "leave"

type Application = { id: string; request: ApplicationRequest; account: Account; decided?: Decision }

const DECISIONS: readonly string[] = ["approve", "decline", "leave"]

/**
 * The hosted application (protocol.md §2): the shopper's browser posts the signed form, the
 * shopper decides, the lender posts the signed result to x_url_callback and redirects the
 * browser to x_url_complete with the same fields in the query.
 */
export class HostedApplication {
  private readonly applications = new Map<string, Application>()

  constructor(
    private readonly accounts: readonly Account[],
    private readonly ledger: Ledger,
    private readonly callbacks: CallbackSender,
    private readonly decisionMode: () => SimulatorSettings["decision"],
    private readonly logger: SimulatorLogger
  ) {}

  /** POST /CheckOut/ApplicationForm.aspx */
  async submit(req: IncomingMessage, res: ServerResponse) {
    const fields = parseForm(await readBody(req))
    if (!fields.x_account_id) {
      return sendHtml(
        res,
        400,
        problemsPage("Invalid request", "PayBright cannot start this application:", ["x_account_id: required"])
      )
    }
    const account = findAccount(this.accounts, fields.x_account_id)
    if (!account) {
      return sendHtml(res, 401, messagePage("Unknown merchant", "x_account_id is not a PayBright merchant account."))
    }
    // The signature is checked before the fields, as it covers them: a field altered on the way
    // is a signature problem, not a validation one.
    if (!verifySignature(fields, account.apiToken)) {
      return sendHtml(
        res,
        401,
        messagePage("Signature problem", "x_signature does not match the fields and the merchant's API token.")
      )
    }
    const parsed = applicationRequestSchema.safeParse(fields)
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(form)"}: ${issue.message}`)
      return sendHtml(res, 400, problemsPage("Invalid request", "PayBright cannot start this application:", problems))
    }
    const application: Application = { id: randomUUID(), request: parsed.data, account }
    this.applications.set(application.id, application)
    this.logger.info(
      `application ${application.id} for ${parsed.data.x_reference} (${parsed.data.x_amount} ${parsed.data.x_currency})`
    )
    const mode = this.decisionMode()
    if (mode !== "ask") {
      return this.finish(application, mode, res)
    }
    const request = parsed.data
    const customer = [request.x_customer_first_name, request.x_customer_last_name].filter(Boolean).join(" ")
    sendHtml(
      res,
      200,
      applicationPage({
        id: application.id,
        shopName: request.x_shop_name,
        amount: request.x_amount,
        currency: request.x_currency,
        reference: request.x_reference,
        test: request.x_test === "true",
        customer: customer || undefined,
      })
    )
  }

  /** POST /CheckOut/decision: one of the page's three buttons. */
  async decide(req: IncomingMessage, res: ServerResponse) {
    const form = parseForm(await readBody(req))
    const application = this.applications.get(form.application_id ?? "")
    if (!application) {
      return sendHtml(
        res,
        404,
        messagePage("Unknown application", "This application does not exist, or the simulator was restarted.")
      )
    }
    if (application.decided) {
      return sendHtml(
        res,
        409,
        messagePage("Already decided", `This application was already answered (${application.decided}).`)
      )
    }
    if (!DECISIONS.includes(form.decision ?? "")) {
      return sendHtml(
        res,
        400,
        problemsPage("Invalid decision", "The page sent an answer PayBright does not know:", [
          "decision: must be approve, decline or leave",
        ])
      )
    }
    this.finish(application, form.decision as Decision, res)
  }

  private finish(application: Application, decision: Decision, res: ServerResponse) {
    // Set before anything else, so that a double click answers 409 rather than opening two contracts.
    application.decided = decision
    const { request, account } = application
    this.logger.info(`application ${application.id} for ${request.x_reference}: ${decision}`)
    if (decision === "leave") {
      // The lender sends the shopper back to the cancel URL exactly as given, with no result.
      return redirect(res, request.x_url_cancel)
    }
    const approved = decision === "approve"
    const gatewayReference = approved
      ? this.ledger.open({
          reference: request.x_reference,
          accountId: account.apiKey,
          currency: request.x_currency,
          test: request.x_test === "true",
          authorized: parseAmount(request.x_amount),
          card: issueCard(),
        }).gatewayReference
      : // A declined application still has a number, and the result carries it.
        this.ledger.allocateReference()
    const result = signFields(
      {
        x_account_id: request.x_account_id,
        x_reference: request.x_reference,
        x_currency: request.x_currency,
        x_test: request.x_test,
        // Echoed as received: the store verifies the signature over the bytes it sent.
        x_amount: request.x_amount,
        x_gateway_reference: gatewayReference,
        x_timestamp: lenderTimestamp(),
        // Capitalized, as the SDKs see it; the docs write it in lowercase (protocol.md §2).
        x_result: approved ? "Completed" : "Failed",
        x_transaction_type: "authorization",
        x_message: approved ? "Approved" : "Application declined",
      },
      account.apiToken
    )
    this.callbacks.send(request.x_url_callback, result)
    redirect(res, withQuery(request.x_url_complete, result))
  }
}

/** The URL with the fields added to its query, keeping whatever query it already had. */
function withQuery(url: string, fields: Record<string, string>): string {
  const target = new URL(url)
  for (const [name, value] of Object.entries(fields)) {
    target.searchParams.set(name, value)
  }
  return target.toString()
}
