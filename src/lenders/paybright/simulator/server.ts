import http from "node:http"
import type { AddressInfo } from "node:net"
import { parseAmount } from "../../../lib/texts/amount"
import { ORDER_MANAGEMENT_PATH } from "../order-management"
import { SIMULATOR_TEST_ACCOUNT, type Account } from "./accounts"
import { indexPage, messagePage } from "./application-page"
import { CallbackSender, type CallbackAttempt } from "./callbacks"
import { handleControl, type ControlTarget } from "./control-api"
import { HostedApplication } from "./hosted-application"
import { HttpError, sendHtml, sendJson } from "./http"
import { Ledger, LedgerError, type ContractBooks, type ContractView } from "./ledger"
import { silentLogger, type SimulatorLogger } from "./logger"
import {
  FaultQueue,
  type Fault,
  type FaultKind,
  type FaultOperation,
  type FiredFault,
  type VoidFaultKind,
  type Operation,
} from "./faults"
import { OrderManagement } from "./order-management"
import { promotionalWidgetScript } from "./promotional-widget"
import { RestApi, type InjectedFailure } from "./rest-api"
import {
  copySettings,
  DEFAULT_SETTINGS,
  mergeSettings,
  type CallbackSettings,
  type SimulatorSettings,
  type SimulatorSettingsUpdate,
} from "./settings"

export { SIMULATOR_TEST_ACCOUNT }

/** Options of startSimulator; everything has a default suited to tests. */
export type SimulatorOptions = {
  /** TCP port; 0 (the default) picks a free one, as tests running in parallel need. */
  port?: number
  /** Interface to listen on; default 127.0.0.1, so the simulator is not reachable from the network. */
  host?: string
  /** Merchant accounts the simulator accepts; default [SIMULATOR_TEST_ACCOUNT]. */
  accounts?: Account[]
  /** "ask" (default) shows the application page; "approve"/"decline" decide at once, for unattended tests. */
  decision?: SimulatorSettings["decision"]
  /** Callback delivery; default delayMs 0, retries 5, retryIntervalMs 1000, enabled true, copies 1. */
  callback?: Partial<CallbackSettings>
  /** x_result of a successful capture; default "Completed" (the spec's sample), "success" is the docs' word. */
  captureResult?: string
  /** Milliseconds in-store capture, refund and the void wait before answering, to widen races in tests; default 0. */
  apiLatencyMs?: number
  /** Where to report requests and callback deliveries; default silent. */
  logger?: SimulatorLogger
}

/** A fault to arm: `count` defaults to 1. `bad_signature` applies to the void only. */
export type FaultRequest = { count?: number; message?: string; delayMs?: number } & (
  { operation: Operation; kind: FaultKind } | { operation: Extract<FaultOperation, "void">; kind: VoidFaultKind }
)

/** A card transaction as the card network reports it to the lender (spec §6.2). */
export type CardTransaction = { pan: string; kind: "charge" | "refund"; amount: string; reference: string }

/** A running simulator. */
export interface Simulator {
  /** Base URL, e.g. http://127.0.0.1:4010. */
  readonly url: string
  /** What the provider's checkoutUrl points at (the client appends /CheckOut/ApplicationForm.aspx and /checkout/api2.aspx). */
  readonly checkoutUrl: string
  /** What the provider's apiUrl points at (the client appends /api/...). */
  readonly apiUrl: string
  /** Stops listening, cancels pending callbacks and closes idle keep-alive sockets at once. */
  close(): Promise<void>
  /** A contract's ledger by gateway reference (x_gateway_reference); never its card number. */
  contract(gatewayReference: string): ContractView | undefined
  /** The latest contract opened for a merchant x_reference. */
  contractByReference(reference: string): ContractView | undefined
  /** Every contract, oldest first. */
  contracts(): ContractView[]
  /** Every callback attempt so far, oldest first. */
  callbacks(): CallbackAttempt[]
  /** The next call of `failure.operation` on the contract answers `failure.status` and `failure.message`, once. */
  failNext(gatewayReference: string, failure: InjectedFailure): void
  /** Arms a fault of the fault matrix for the next `count` calls of an operation on the contract. */
  injectFault(gatewayReference: string, fault: FaultRequest): Fault
  /** What has moved on a contract so far, to put back with `restoreBooks`. */
  books(gatewayReference: string): ContractBooks
  /**
   * Puts a contract back as `books` kept it, with no fault or failure armed on it: a test can start
   * from a contract an earlier one used, as Medusa's test runner starts it from the same database.
   */
  restoreBooks(books: ContractBooks): void
  /** Every armed fault that answered a call so far, oldest first (a copy). */
  faultsFired(): FiredFault[]
  /**
   * The card network reporting a transaction on a virtual card (spec §6.2): the lender captures or
   * adjusts the contract. Tests wire a fake card processor to this, as Marqeta is wired to PayBright.
   */
  cardTransaction(event: CardTransaction): void
  /** The current settings (a copy). */
  get settings(): SimulatorSettings
  /** Merges a change into the settings (callback one level deeper); throws on an unknown or invalid field. */
  set settings(update: SimulatorSettingsUpdate)
}

/** Starts the lender simulator on a real HTTP port and resolves once it listens. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const accounts = [...(options.accounts ?? [SIMULATOR_TEST_ACCOUNT])]
  const logger = options.logger ?? silentLogger
  let settings = mergeSettings(DEFAULT_SETTINGS, {
    decision: options.decision,
    captureResult: options.captureResult,
    apiLatencyMs: options.apiLatencyMs,
    callback: options.callback,
  })
  const ledger = new Ledger()
  const callbacks = new CallbackSender(() => settings.callback, logger)
  const application = new HostedApplication(accounts, ledger, callbacks, () => settings.decision, logger)
  const faults = new FaultQueue((reference) => ledger.get(reference) !== undefined)
  const api = new RestApi(accounts, ledger, faults, () => settings, logger)
  const orderManagement = new OrderManagement(accounts, ledger, faults, callbacks, () => settings, logger)

  const control: ControlTarget = {
    contract: (reference) => viewOf(ledger, ledger.get(reference)),
    contractByReference: (reference) => viewOf(ledger, ledger.byReference(reference)),
    contracts: () => ledger.all().map((contract) => ledger.view(contract)),
    callbacks: () => callbacks.log.map((entry) => ({ ...entry })),
    failNext: (reference, failure) => api.failNext(reference, failure),
    injectFault: (reference, fault) => faults.arm(reference, fault),
    getSettings: () => copySettings(settings),
    updateSettings: (update) => {
      try {
        settings = mergeSettings(settings, update)
      } catch (error) {
        throw error instanceof RangeError ? new HttpError(400, error.message) : error
      }
      return copySettings(settings)
    },
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://simulator")
    // The lender runs on ASP.NET: paths match whatever their case or trailing slash (protocol.md §1).
    const path = url.pathname.toLowerCase().replace(/\/+$/, "") || "/"
    const method = req.method ?? "GET"
    // The order-management call lives on the checkout host but is server to server: it answers JSON errors.
    const browser = (path.startsWith("/checkout/") && path !== ORDER_MANAGEMENT_PATH) || path === "/"
    logger.info(`${method} ${url.pathname}`)
    try {
      const allow = (...methods: string[]) => {
        if (!methods.includes(method))
          throw new HttpError(405, `${method} is not allowed here; use ${methods.join(" or ")}`, {
            allow: methods.join(", "),
          })
      }
      if (path === "/checkout/applicationform.aspx") {
        allow("POST")
        return await application.submit(req, res)
      }
      if (path === ORDER_MANAGEMENT_PATH) {
        allow("POST")
        return await orderManagement.handle(req, res)
      }
      if (path === "/checkout/decision") {
        allow("POST")
        return await application.decide(req, res)
      }
      if (path === "/api/vcn/pan") {
        allow("GET")
        return await api.virtualCard(req, res, url.searchParams)
      }
      const instore = /^\/api\/v2\/instore\/([^/]+)\/(capture|refund)$/.exec(path)
      if (instore) {
        allow("POST")
        // Taken from the original path: a gateway reference is digits, but keep its case regardless.
        const reference = decodeURIComponent(url.pathname.split("/")[4])
        return instore[2] === "capture" ? await api.capture(req, res, reference) : await api.refund(req, res, reference)
      }
      if (path === "/dist/sdk.js") {
        allow("GET", "HEAD")
        res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" })
        return void res.end(method === "HEAD" ? undefined : promotionalWidgetScript(url.searchParams))
      }
      if (path === "/_simulator" || path.startsWith("/_simulator/")) {
        return await handleControl(req, res, url, control)
      }
      if (path === "/") {
        allow("GET", "HEAD")
        return sendHtml(res, 200, indexPage(base, accounts[0] ?? SIMULATOR_TEST_ACCOUNT))
      }
      throw new HttpError(404, `No such endpoint: ${method} ${url.pathname}`)
    } catch (error) {
      // A URIError is a malformed %-escape in the path: the client's mistake, not the simulator's.
      const status =
        error instanceof HttpError || error instanceof LedgerError
          ? error.status
          : error instanceof URIError
            ? 400
            : 500
      const message = error instanceof Error ? error.message : "internal error"
      const headers = error instanceof HttpError ? error.headers : {}
      if (status >= 500) {
        logger.warn(`simulator: ${method} ${url.pathname} failed: ${message}`)
      }
      if (res.headersSent) {
        res.destroy()
      } else if (browser) {
        sendHtml(res, status, messagePage(status === 413 ? "Request too large" : "Request refused", message), headers)
      } else {
        sendJson(res, status, { message }, headers)
      }
    }
  })
  // Keep-alive sockets of a closed simulator must not hold a test process open for long.
  server.keepAliveTimeout = 2_000

  const host = options.host ?? "127.0.0.1"
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const base = `http://${host.includes(":") ? `[${host}]` : host}:${port}`

  let closing: Promise<void> | undefined
  // A class, not an object literal: only classes may give an accessor's getter and setter different types.
  const simulator = new (class implements Simulator {
    readonly url = base
    readonly checkoutUrl = base
    readonly apiUrl = base
    readonly contract = control.contract
    readonly contractByReference = control.contractByReference
    readonly contracts = control.contracts
    readonly callbacks = control.callbacks
    readonly failNext = control.failNext
    readonly injectFault = control.injectFault

    books(gatewayReference: string) {
      return ledger.books(gatewayReference)
    }

    restoreBooks(books: ContractBooks) {
      ledger.restore(books)
      faults.disarm(books.gatewayReference)
      api.disarm(books.gatewayReference)
    }

    faultsFired() {
      return faults.fired.map((fired) => ({ ...fired }))
    }

    close() {
      closing ??= new Promise<void>((resolve) => {
        callbacks.close()
        server.close(() => resolve())
        // Idle keep-alive sockets go now; one still answering gets a moment, then goes too.
        server.closeIdleConnections()
        setTimeout(() => server.closeAllConnections(), 500).unref()
      })
      return closing
    }

    cardTransaction(event: CardTransaction) {
      ledger.cardTransaction({ ...event, amount: parseAmount(event.amount) })
    }

    get settings(): SimulatorSettings {
      return control.getSettings()
    }

    set settings(update: SimulatorSettingsUpdate) {
      settings = mergeSettings(settings, update)
    }
  })()
  return simulator
}

function viewOf(ledger: Ledger, contract: Parameters<Ledger["view"]>[0] | undefined): ContractView | undefined {
  return contract && ledger.view(contract)
}
