import { z } from "zod"
import { issuePaths } from "../schemas"
import { LedgerError } from "./ledger"

/** The REST operations a fault can be injected into. */
export type Operation = "capture" | "refund" | "card"

/** Every operation a fault can be injected into: the REST API's and the order-management void. */
export type FaultOperation = Operation | "void"

/**
 * What can go wrong between the plugin and the lender, for the fault matrix. Whether the lender
 * acts before the fault shows is fixed per kind (FAULT_ACTS), so a test knows what the lender's
 * books must say afterwards.
 */
export const FAULT_KINDS = [
  "slow",
  "reset_before_read",
  "reset_after_read",
  "status_500",
  "status_502",
  "status_503",
  "rate_limited",
  "unauthorized",
  "bad_request",
  "malformed_json",
  "html_error",
  "missing_field",
  "echo_mismatch",
] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

/**
 * Whether the lender makes the capture or refund before the fault shows. A gateway's 502 and a
 * reset after the request was read lose an answer to a request the lender carried out; a 500, a
 * 503 or an HTML error page come from a lender that failed before acting.
 */
export const FAULT_ACTS: Record<FaultKind, boolean> = {
  slow: true,
  reset_before_read: false,
  reset_after_read: true,
  status_500: false,
  status_502: true,
  status_503: false,
  rate_limited: false,
  unauthorized: false,
  bad_request: false,
  malformed_json: true,
  html_error: false,
  missing_field: true,
  echo_mismatch: true,
}

/**
 * A void answers a signed form (protocol.md §6), so it takes one kind more: a 200 whose signature
 * does not verify. `malformed_json` answers a form cut in the middle there.
 */
export const VOID_FAULT_KINDS = [...FAULT_KINDS, "bad_signature"] as const
export type VoidFaultKind = (typeof VOID_FAULT_KINDS)[number]

/**
 * Whether the lender voids the contract (when its rules allow) before the fault shows: the same
 * reading as FAULT_ACTS. The void names its contract in the body, so `reset_before_read` comes
 * once the simulator has read the request, but still before it acts. `bad_signature` is the
 * lender's real answer, signed with another key.
 */
export const VOID_FAULT_ACTS: Record<VoidFaultKind, boolean> = { ...FAULT_ACTS, bad_signature: true }

/** Whether the lender acts before a fault of this kind shows, for any operation the kind applies to. */
export function actsBeforeFault(kind: VoidFaultKind): boolean {
  return VOID_FAULT_ACTS[kind]
}

/** A fault armed for the next `count` calls of an operation on one contract. */
export type Fault = {
  operation: FaultOperation
  kind: VoidFaultKind
  count: number
  message?: string
  delayMs?: number
}

export const faultSchema = z
  .object({
    operation: z.enum(["capture", "refund", "card", "void"]),
    kind: z.enum(VOID_FAULT_KINDS),
    count: z.number().int().min(1).max(100).default(1),
    message: z.string().min(1).max(500).optional(),
    /** For "slow": how long the answer is held; default 20 s, longer than the plugin's timeouts in tests. */
    delayMs: z.number().int().min(0).max(600_000).optional(),
  })
  .strict()
  .refine((fault) => fault.kind !== "bad_signature" || fault.operation === "void", {
    path: ["kind"],
    message: "bad_signature applies only to void: the REST API's answers are not signed",
  })

/** A fault that answered a call: the contract and operation it was armed for, and its kind. */
export type FiredFault = { gatewayReference: string; operation: FaultOperation; kind: VoidFaultKind }

/** Faults armed per contract and operation, taken one call at a time. */
export class FaultQueue {
  private readonly armed = new Map<string, Fault>()
  /** Every fault taken by a call, oldest first: a test tells an armed fault that fired from one that never did. */
  readonly fired: FiredFault[] = []

  constructor(private readonly contractExists: (gatewayReference: string) => boolean) {}

  /**
   * Arms a fault for the next `count` calls of an operation on a contract; throws for an unknown
   * contract or an invalid fault, so a typo in a test fails loudly.
   */
  arm(gatewayReference: string, fault: unknown): Fault {
    const parsed = faultSchema.safeParse(fault)
    if (!parsed.success) {
      throw new LedgerError(400, `invalid fault: ${issuePaths(parsed.error).join(", ")}`)
    }
    if (!this.contractExists(gatewayReference)) {
      throw new LedgerError(404, `no contract ${gatewayReference}`)
    }
    this.armed.set(key(gatewayReference, parsed.data.operation), { ...parsed.data })
    return parsed.data
  }

  /** The fault for this call, if one is armed; counts it down. */
  take(gatewayReference: string, operation: FaultOperation): Fault | undefined {
    const id = key(gatewayReference, operation)
    const fault = this.armed.get(id)
    if (!fault) return undefined
    if (fault.count <= 1) this.armed.delete(id)
    else this.armed.set(id, { ...fault, count: fault.count - 1 })
    this.fired.push({ gatewayReference, operation, kind: fault.kind })
    return fault
  }

  /** Disarms every fault armed on a contract. */
  disarm(gatewayReference: string): void {
    for (const id of [...this.armed.keys()]) if (id.startsWith(keyPrefix(gatewayReference))) this.armed.delete(id)
  }

  /** Whether the next call of this operation is to be reset before its request is read. */
  resetsBeforeRead(gatewayReference: string, operation: FaultOperation): boolean {
    return this.armed.get(key(gatewayReference, operation))?.kind === "reset_before_read"
  }
}

function key(gatewayReference: string, operation: FaultOperation) {
  return `${keyPrefix(gatewayReference)}${operation}`
}

function keyPrefix(gatewayReference: string) {
  return `${gatewayReference}\n`
}

/** The status and body each kind answers with, when it answers at all. */
export function faultAnswer(
  kind: VoidFaultKind,
  message?: string
): { status: number; body: string; type: string; headers?: Record<string, string> } | undefined {
  const json = (status: number, payload: unknown, headers?: Record<string, string>) => ({
    status,
    body: JSON.stringify(payload),
    type: "application/json",
    headers,
  })
  switch (kind) {
    case "status_500":
      return json(500, { message: message ?? "Internal server error" })
    case "status_502":
      return { status: 502, body: "<html><body><h1>502 Bad Gateway</h1></body></html>", type: "text/html" }
    case "status_503":
      return json(503, { message: message ?? "Service unavailable" })
    case "rate_limited":
      return json(429, { message: message ?? "Too many requests" }, { "retry-after": "30" })
    case "unauthorized":
      return json(401, { message: message ?? "Authorization has been denied for this request." })
    case "bad_request":
      return json(400, { message: message ?? "The request is invalid." })
    case "malformed_json":
      return { status: 200, body: '{"x_result":"Comp', type: "application/json" }
    case "html_error":
      return {
        status: 500,
        body: "<!DOCTYPE html><html><head><title>Runtime Error</title></head><body><h1>Server Error in '/' Application.</h1></body></html>",
        type: "text/html",
      }
    default:
      return undefined
  }
}
