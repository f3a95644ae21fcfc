import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { parseAmount } from "../lender/amount"
import { applicationRequestSchema, type ApplicationRequest } from "../lender/schemas"
import { signFields, verifySignature } from "../lender/signing"
import { applicationPage, messagePage } from "./application-page"
import type { CallbackSender } from "./callbacks"
import { parseForm, readBody, redirect, sendHtml } from "./http"
import type { Ledger } from "./ledger"
import { issueCard } from "./virtual-card"

export type Decision = "approve" | "decline" | "leave"
export type Account = { apiKey: string; apiToken: string }

type Application = { id: string; request: ApplicationRequest; decided?: Decision }

/**
 * The hosted application (protocol.md §2): the shopper's browser posts the signed form, the
 * shopper decides, the lender posts the signed result to x_url_callback and redirects the
 * browser to x_url_complete with the same fields in the query.
 */
export class HostedApplication {
  private readonly applications = new Map<string, Application>()

  constructor(
    private readonly accounts: () => Account[],
    private readonly ledger: Ledger,
    private readonly callbacks: CallbackSender,
    private readonly decisionMode: () => "ask" | Exclude<Decision, "leave">
  ) {}

  async submit(req: IncomingMessage, res: ServerResponse) {
    const fields = parseForm(await readBody(req))
    const account = this.accounts().find((candidate) => candidate.apiKey === fields.x_account_id)
    if (!account) {
      return sendHtml(res, 401, messagePage("Unknown merchant", "x_account_id is not a PayBright account."))
    }
    if (!verifySignature(fields, account.apiToken)) {
      return sendHtml(res, 401, messagePage("Signature problem", "x_signature does not match the fields and the merchant's API token."))
    }
    const parsed = applicationRequestSchema.safeParse(fields)
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`)
      return sendHtml(res, 400, messagePage("Invalid request", problems.join("; ")))
    }
    const application: Application = { id: randomUUID(), request: parsed.data }
    this.applications.set(application.id, application)
    const mode = this.decisionMode()
    if (mode !== "ask") {
      return this.finish(application, mode, account, res)
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

  async decide(req: IncomingMessage, res: ServerResponse) {
    const form = parseForm(await readBody(req))
    const application = this.applications.get(form.application_id ?? "")
    if (!application) {
      return sendHtml(res, 404, messagePage("Unknown application", "This application does not exist."))
    }
    if (application.decided) {
      return sendHtml(res, 409, messagePage("Already decided", `This application was already answered (${application.decided}).`))
    }
    const decision = form.decision as Decision
    if (!["approve", "decline", "leave"].includes(decision)) {
      return sendHtml(res, 400, messagePage("Invalid decision", "decision must be approve, decline or leave."))
    }
    const account = this.accounts().find((candidate) => candidate.apiKey === application.request.x_account_id)!
    this.finish(application, decision, account, res)
  }

  private finish(application: Application, decision: Decision, account: Account, res: ServerResponse) {
    application.decided = decision
    const request = application.request
    if (decision === "leave") {
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
      : this.ledger.allocateReference()
    const result = signFields(
      {
        x_account_id: request.x_account_id,
        x_reference: request.x_reference,
        x_currency: request.x_currency,
        x_test: request.x_test,
        x_amount: request.x_amount,
        x_gateway_reference: gatewayReference,
        x_timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
        x_result: approved ? "Completed" : "Failed",
        x_transaction_type: "authorization",
        x_message: approved ? "Approved" : "Application declined",
      },
      account.apiToken
    )
    this.callbacks.send(request.x_url_callback, result)
    const complete = new URL(request.x_url_complete)
    for (const [name, value] of Object.entries(result)) {
      complete.searchParams.set(name, value)
    }
    redirect(res, complete.toString())
  }
}
