import http from "node:http"
import type { AddressInfo } from "node:net"
import { CallbackSender, type CallbackAttempt, type CallbackSettings } from "./callbacks"
import { HostedApplication, type Account } from "./hosted-application"
import { HttpError, readBody, sendHtml, sendJson } from "./http"
import { Ledger, parseAmount, type ContractView } from "./ledger"
import { RestApi, type InjectedFailure } from "./rest-api"
import { messagePage } from "./application-page"

/** A test-only account; never a real PayBright credential. */
export const SIMULATOR_TEST_ACCOUNT: Account = {
  apiKey: "sim_test_account",
  apiToken: "sim_test_token_do_not_use_in_production",
}

export type SimulatorSettings = {
  /** "ask" shows the application page; "approve"/"decline" decide at once (unattended tests). */
  decision: "ask" | "approve" | "decline"
  callback: CallbackSettings
  /** x_result of a successful capture: "Completed" as in the spec's sample, or "success" as in the docs. */
  captureResult: string
}

export type SimulatorOptions = {
  port?: number
  host?: string
  accounts?: Account[]
  decision?: SimulatorSettings["decision"]
  callback?: Partial<CallbackSettings>
  captureResult?: string
  logger?: { info(message: string): void; warn(message: string): void }
}

export type Simulator = {
  url: string
  /** What the provider's checkoutUrl points at. */
  checkoutUrl: string
  /** What the provider's apiUrl points at. */
  apiUrl: string
  close(): Promise<void>
  contract(gatewayReference: string): ContractView | undefined
  contractByReference(reference: string): ContractView | undefined
  callbacks(): CallbackAttempt[]
  failNext(gatewayReference: string, failure: InjectedFailure): void
  /**
   * The card network reporting a transaction on a virtual card (spec §6.2): the lender captures or
   * adjusts the contract. Tests wire a fake card processor to this, as Marqeta is wired to PayBright.
   */
  cardTransaction(event: { pan: string; kind: "charge" | "refund"; amount: string; reference: string }): void
  /** Reads the settings; assigning merges (callback settings merge one level deeper). */
  settings: Partial<Omit<SimulatorSettings, "callback">> & { callback?: Partial<CallbackSettings> }
}

/** Starts the lender simulator on a real HTTP port (0 picks a free one). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const accounts = options.accounts ?? [SIMULATOR_TEST_ACCOUNT]
  let settings: SimulatorSettings = {
    decision: options.decision ?? "ask",
    captureResult: options.captureResult ?? "Completed",
    callback: { delayMs: 0, retries: 5, retryIntervalMs: 1000, enabled: true, ...options.callback },
  }
  const ledger = new Ledger()
  const callbacks = new CallbackSender(() => settings.callback)
  const application = new HostedApplication(() => accounts, ledger, callbacks, () => settings.decision)
  const api = new RestApi(() => accounts, ledger, () => settings.captureResult)
  const log = options.logger

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://simulator")
    const path = url.pathname.toLowerCase().replace(/\/+$/, "") || "/"
    const method = req.method ?? "GET"
    log?.info(`${method} ${url.pathname}`)
    try {
      const instore = /^\/api\/v2\/instore\/([^/]+)\/(capture|refund)$/.exec(path)
      if (path === "/checkout/applicationform.aspx") {
        return method === "POST" ? await application.submit(req, res) : notAllowed(res)
      }
      if (path === "/checkout/decision") {
        return method === "POST" ? await application.decide(req, res) : notAllowed(res)
      }
      if (path === "/api/vcn/pan") {
        return method === "GET" ? await api.virtualCard(req, res, url.searchParams) : notAllowed(res)
      }
      if (instore) {
        const reference = decodeURIComponent(url.pathname.split("/")[4])
        if (method !== "POST") return notAllowed(res)
        return instore[2] === "capture" ? await api.capture(req, res, reference) : await api.refund(req, res, reference)
      }
      if (path.startsWith("/_simulator/")) {
        return await control(req, res, url, method)
      }
      if (path === "/") {
        return sendHtml(res, 200, indexPage(accounts[0]))
      }
      sendJson(res, 404, { message: `No such endpoint: ${method} ${url.pathname}` })
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500
      log?.warn(`simulator: ${method} ${url.pathname} failed: ${error instanceof Error ? error.message : error}`)
      if (!res.headersSent) sendJson(res, status, { message: error instanceof Error ? error.message : "error" })
    }
  })

  /** Test-only control API: the ledger, the callback log, failure injection and settings. */
  async function control(req: http.IncomingMessage, res: http.ServerResponse, url: URL, method: string) {
    const parts = url.pathname.split("/").filter(Boolean).slice(1)
    if (parts[0] === "contracts" && parts.length === 1 && method === "GET") {
      const reference = url.searchParams.get("reference")
      const contract = reference ? ledger.byReference(reference) : undefined
      return contract ? sendJson(res, 200, ledger.view(contract)) : sendJson(res, 404, { message: "no such contract" })
    }
    if (parts[0] === "contracts" && parts.length === 2 && method === "GET") {
      const contract = ledger.get(parts[1])
      return contract ? sendJson(res, 200, ledger.view(contract)) : sendJson(res, 404, { message: "no such contract" })
    }
    if (parts[0] === "contracts" && parts[2] === "fail-next" && method === "POST") {
      simulator.failNext(parts[1], JSON.parse(await readBody(req)))
      return sendJson(res, 200, { ok: true })
    }
    if (parts[0] === "callbacks" && method === "GET") {
      return sendJson(res, 200, callbacks.log)
    }
    if (parts[0] === "settings" && method === "POST") {
      simulator.settings = JSON.parse(await readBody(req))
      return sendJson(res, 200, settings)
    }
    sendJson(res, 404, { message: "unknown control endpoint" })
  }

  const host = options.host ?? "127.0.0.1"
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const base = `http://${host}:${port}`

  const simulator: Simulator = {
    url: base,
    checkoutUrl: base,
    apiUrl: base,
    close: () =>
      new Promise<void>((resolve) => {
        callbacks.close()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
    contract: (reference) => {
      const contract = ledger.get(reference)
      return contract && ledger.view(contract)
    },
    contractByReference: (reference) => {
      const contract = ledger.byReference(reference)
      return contract && ledger.view(contract)
    },
    callbacks: () => [...callbacks.log],
    failNext: (reference, failure) => api.failNext(reference, failure),
    cardTransaction(event) {
      const contract = ledger.byCardNumber(event.pan)
      if (!contract) {
        throw new Error("the card network reported a card this lender did not issue")
      }
      const amount = parseAmount(event.amount)
      if (event.kind === "charge") {
        ledger.capture(contract, event.reference, amount)
      } else {
        ledger.refund(contract, amount)
      }
    },
    get settings() {
      return settings
    },
    set settings(update) {
      settings = { ...settings, ...update, callback: { ...settings.callback, ...update.callback } }
    },
  }
  return simulator
}

function notAllowed(res: http.ServerResponse) {
  sendJson(res, 405, { message: "method not allowed" })
}

function indexPage(account: Account): string {
  return messagePage(
    "PayBright simulator",
    `Hosted application: POST /CheckOut/ApplicationForm.aspx. REST: GET /api/vcn/pan, POST /api/v2/instore/{ref}/capture/, POST /api/v2/instore/{ref}/refund/. Control: /_simulator/. Test account (simulator only): apiKey ${account.apiKey}, apiToken ${account.apiToken}.`
  )
}
