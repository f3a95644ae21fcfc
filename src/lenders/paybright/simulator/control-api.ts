import type { IncomingMessage, ServerResponse } from "node:http"
import type { CallbackAttempt } from "./callbacks"
import { HttpError, readJson, sendJson } from "./http"
import type { ContractView } from "./ledger"
import type { Fault } from "./faults"
import type { InjectedFailure } from "./rest-api"
import type { SimulatorSettings } from "./settings"

/** What the control API reads and changes; the same operations `Simulator` offers in process. */
export type ControlTarget = {
  contract(gatewayReference: string): ContractView | undefined
  contractByReference(reference: string): ContractView | undefined
  contracts(): ContractView[]
  callbacks(): CallbackAttempt[]
  failNext(gatewayReference: string, failure: InjectedFailure): void
  injectFault(gatewayReference: string, fault: unknown): Fault
  getSettings(): SimulatorSettings
  updateSettings(update: unknown): SimulatorSettings
}

/**
 * The simulator's control API under /_simulator/: TEST-ONLY, with no authentication, for tests
 * and demos running out of process. The real lender has nothing like it. It never shows card
 * data beyond the last four digits (ContractView), as nothing outside /api/vcn/pan may.
 *
 *   GET  /_simulator/contracts                      every contract
 *   GET  /_simulator/contracts?reference=…          the contract of a merchant x_reference (404 if none)
 *   GET  /_simulator/contracts/:gatewayReference    one contract's ledger
 *   POST /_simulator/contracts/:gatewayReference/fail-next   {operation, status, message}
 *   POST /_simulator/contracts/:gatewayReference/faults      {operation, kind, count?, message?, delayMs?}
 *   GET  /_simulator/callbacks[?reference=…][&kind=application|void]   callback delivery log
 *   GET  /_simulator/settings                       current settings
 *   POST /_simulator/settings                       {decision?, callback?, captureResult?, apiLatencyMs?}
 */
export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  target: ControlTarget
): Promise<void> {
  const method = req.method ?? "GET"
  const [resource, id, action, ...rest] = url.pathname.split("/").filter(Boolean).slice(1).map(decodeURIComponent)
  const route = (resource ?? "").toLowerCase()
  const allow = (...methods: string[]) => {
    if (!methods.includes(method))
      throw new HttpError(405, `use ${methods.join(" or ")}`, { allow: methods.join(", ") })
  }

  if (route === "contracts" && id === undefined) {
    allow("GET")
    const reference = url.searchParams.get("reference")
    if (reference === null) return sendJson(res, 200, target.contracts())
    return found(res, target.contractByReference(reference), `no contract for reference ${reference}`)
  }
  if (route === "contracts" && action === undefined) {
    allow("GET")
    return found(res, target.contract(id), `no contract ${id}`)
  }
  if (route === "contracts" && action.toLowerCase() === "fail-next" && rest.length === 0) {
    allow("POST")
    const failure = (await readJson(req)) as InjectedFailure
    target.failNext(id, failure)
    return sendJson(res, 200, { armed: failure })
  }
  if (route === "contracts" && action.toLowerCase() === "faults" && rest.length === 0) {
    allow("POST")
    return sendJson(res, 200, { armed: target.injectFault(id, await readJson(req)) })
  }
  if (route === "callbacks" && id === undefined) {
    allow("GET")
    const reference = url.searchParams.get("reference")
    const kind = url.searchParams.get("kind")
    const log = target
      .callbacks()
      .filter(
        (entry) => (reference === null || entry.reference === reference) && (kind === null || entry.kind === kind)
      )
    return sendJson(res, 200, log)
  }
  if (route === "settings" && id === undefined) {
    allow("GET", "POST")
    return sendJson(res, 200, method === "POST" ? target.updateSettings(await readJson(req)) : target.getSettings())
  }
  sendJson(res, 404, { message: `unknown control endpoint ${url.pathname}` })
}

function found(res: ServerResponse, view: ContractView | undefined, missing: string) {
  return view ? sendJson(res, 200, view) : sendJson(res, 404, { message: missing })
}
