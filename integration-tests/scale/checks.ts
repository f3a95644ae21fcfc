import type { CallbackAttempt, ContractView } from "../../src/simulator"
import type { MedusaBooks } from "./books"

/** One checkout as the suite drove it: what it shipped and refunded, or where it broke. */
export type CheckoutRun = {
  index: number
  sessionId?: string
  orderId?: string
  shipments: number
  refunded?: string
  /** What the run was doing last, to name where it broke. */
  phase?: string
  error?: string
}

/** A named assertion and what broke it; passed when `problems` is empty. */
export type Check = { name: string; problems: string[] }

export function everyCheckoutRan(runs: CheckoutRun[]): Check {
  return {
    name: `every checkout, shipment and refund went through (${runs.length})`,
    problems: runs.filter((run) => run.error).map((run) => `checkout ${run.index}, ${run.phase}: ${run.error}`),
  }
}

export function ordersPlaced(books: MedusaBooks[], expected: number): Check {
  return {
    name: `${expected} orders`,
    problems: books.length === expected ? [] : [`Medusa has ${books.length} orders with a payment`],
  }
}

/** The lender captured each contract once per parcel shipped: no parcel missed, none captured twice. */
export function oneCapturePerShipment(runs: CheckoutRun[], contracts: ContractView[]): Check {
  const problems: string[] = []
  for (const run of runs.filter((candidate) => candidate.sessionId && !candidate.error)) {
    const contract = contracts.find((candidate) => candidate.reference === run.sessionId)
    const captures = contract?.captures.length ?? 0
    if (captures !== run.shipments) {
      problems.push(`order ${run.orderId}: ${run.shipments} shipments, ${captures} lender captures`)
    }
  }
  const shipments = runs.reduce((total, run) => total + run.shipments, 0)
  return { name: `exactly one lender capture per shipment (${shipments} shipments)`, problems }
}

/** Each approval placed an order, or the store reports it to the merchant (orphaned approvals). */
export function approvalsOrderedOrReported(
  contracts: ContractView[],
  books: MedusaBooks[],
  reported: Set<string>
): Check {
  const ordered = new Set(books.map((entry) => entry.gatewayReference))
  return {
    name: `every approval ordered or reported (${contracts.length} approvals)`,
    problems: contracts
      .filter((contract) => !ordered.has(contract.gateway_reference) && !reported.has(contract.gateway_reference))
      .map(
        (contract) => `contract ${contract.gateway_reference} (session ${contract.reference}): no order, not reported`
      ),
  }
}

/** Captured and refunded, total and one by one, equal on both sides for every contract. */
export function ledgersAgree(contracts: ContractView[], books: MedusaBooks[]): Check {
  const problems: string[] = []
  for (const entry of books) {
    const contract = contracts.find((candidate) => candidate.gateway_reference === entry.gatewayReference)
    if (!contract) {
      problems.push(`order ${entry.orderId}: the lender has no contract ${entry.gatewayReference}`)
      continue
    }
    const lender = {
      captured: contract.captured,
      refunded: contract.refunded,
      captures: sorted(contract.captures.map((capture) => capture.amount)),
      refunds: sorted(contract.refunds.map((refund) => refund.amount)),
    }
    const medusa = {
      captured: entry.captured,
      refunded: entry.refunded,
      captures: sorted(entry.captures),
      refunds: sorted(entry.refunds),
    }
    if (JSON.stringify(lender) !== JSON.stringify(medusa)) {
      problems.push(
        `contract ${contract.gateway_reference}: lender ${JSON.stringify(lender)}, Medusa ${JSON.stringify(medusa)}`
      )
    }
  }
  return { name: `Medusa's ledger equals the lender's for every contract (${books.length})`, problems }
}

/** Both deliveries of every result ended with the store's 200 (possibly after retries). */
export function callbacksAnswered(attempts: CallbackAttempt[], contracts: ContractView[], copies: number): Check {
  const problems: string[] = []
  for (const contract of contracts) {
    const mine = attempts.filter((attempt) => attempt.reference === contract.reference)
    for (let copy = 1; copy <= copies; copy++) {
      if (!mine.some((attempt) => attempt.copy === copy && attempt.status === 200)) {
        const seen = mine.filter((attempt) => attempt.copy === copy).map((attempt) => attempt.status ?? attempt.error)
        problems.push(`session ${contract.reference}, delivery ${copy}: ${seen.join(", ") || "not attempted"}`)
      }
    }
  }
  return { name: `every callback delivered ${copies} times and answered 200`, problems }
}

/** No process logged an error. */
export function nothingLoggedAsError(logs: { role: string; errors: string[] }[]): Check {
  return {
    name: `no error logged by any process (${logs.map((log) => log.role).join(", ")})`,
    problems: logs.flatMap((log) => log.errors.map((line) => `${log.role}: ${line.slice(0, 300)}`)),
  }
}

function sorted(amounts: string[]) {
  return [...amounts].sort()
}
