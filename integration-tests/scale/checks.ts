import type { CallbackAttempt, ContractView } from "../../src/lenders/paybright/simulator"
import type { MedusaBooks } from "./books"
import type { PayBrightMoneyRecord } from "../../src/lib/admin-types"
import { unconcluded } from "./records"

/** Why the merchant did not refund an order: a capture of its payment is in doubt, a person's to resolve first. */
export const NOT_REFUNDED_CAPTURE_IN_DOUBT = "not refunded: a capture in doubt"

/** One checkout as the suite drove it: what it shipped and refunded, or where it broke. */
export type CheckoutRun = {
  index: number
  sessionId?: string
  orderId?: string
  paymentId?: string
  shipments: number
  refunded?: string
  /** Why the refund was not made, or ended in doubt: the merchant's to see, not a failure. */
  refundOutcome?: string
  /** Statuses of the shopper's returns that were 5xx (a page the shopper should never see). */
  returnErrors: number[]
  /** What the run was doing last, to name where it broke. */
  phase?: string
  error?: string
}

/** A named assertion and what broke it; passed when `problems` is empty. */
export type Check = { name: string; problems: string[] }

/** A check that also counts what it looks for, for the closing table. */
export type CountingCheck = Check & { count: number }

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

/**
 * Once every parcel has shipped, the lender holds the order's whole total, unless a capture is in
 * doubt or refused while one is (the merchant's to resolve, in sight). A parcel whose capture runs
 * after the last parcel has shipped captures everything that remains, so the later ones find
 * nothing left: a capture per parcel is not required, the total is.
 */
export function everyShipmentCaptured(
  runs: CheckoutRun[],
  contracts: ContractView[],
  books: MedusaBooks[],
  records: PaymentRecords
): Check {
  const problems: string[] = []
  for (const run of runs.filter((candidate) => candidate.sessionId && !candidate.error)) {
    const contract = contracts.find((candidate) => candidate.reference === run.sessionId)
    const book = books.find((candidate) => candidate.paymentId === run.paymentId)
    const rows = records.get(run.paymentId ?? "") ?? []
    const unsettled = unconcluded(rows, "capture")
    const awaitingPerson = unsettled.inDoubt.length + (unsettled.inDoubt.length ? unsettled.refused.length : 0)
    if (!awaitingPerson && contract?.captured !== book?.authorized) {
      problems.push(
        `order ${run.orderId}: ${run.shipments} parcels shipped, the lender captured ${contract?.captured ?? "nothing"} of ${book?.authorized ?? "?"} (records: ${describeRecords(rows)})`
      )
    }
  }
  const shipments = runs.reduce((total, run) => total + run.shipments, 0)
  return { name: `every shipped order captured in full, or in doubt (${shipments} shipments)`, problems }
}

/** A payment's money records in a line: what each moved, how it ended, and why, to explain a failed check. */
function describeRecords(rows: PayBrightMoneyRecord[]): string {
  if (!rows.length) return "none"
  return rows
    .map(
      (row) =>
        `${row.kind} ${row.amount} ${row.trigger}${row.fulfillment_id ? ` ${row.fulfillment_id}` : ""} ${row.state}${row.message ? `: ${row.message}` : ""}`
    )
    .join("; ")
}

/**
 * Nothing moved twice at the lender: at most one capture per parcel shipped, and at most the one
 * refund the merchant asked for. Counts the movements beyond those.
 */
export function nothingDoubled(runs: CheckoutRun[], contracts: ContractView[]): CountingCheck {
  const problems: string[] = []
  let count = 0
  for (const run of runs) {
    const contract = contracts.find((candidate) => candidate.reference === run.sessionId)
    if (!contract) continue
    const refundsAsked = run.index % 10 === 0 && run.refundOutcome !== NOT_REFUNDED_CAPTURE_IN_DOUBT ? 1 : 0
    const extra =
      Math.max(0, contract.captures.length - run.shipments) + Math.max(0, contract.refunds.length - refundsAsked)
    if (extra > 0) {
      problems.push(
        `order ${run.orderId}: ${run.shipments} shipments and ${refundsAsked} refund asked, the lender made ${contract.captures.length} captures and ${contract.refunds.length} refunds`
      )
    }
    count += extra
  }
  return { name: "no capture or refund made twice at the lender", problems, count }
}

/** Each approval placed an order, or the store reports it to the merchant (orphaned approvals). */
export function approvalsOrderedOrReported(
  contracts: ContractView[],
  books: MedusaBooks[],
  reported: Set<string>
): CountingCheck {
  const ordered = new Set(books.map((entry) => entry.gatewayReference))
  const lost = contracts.filter(
    (contract) => !ordered.has(contract.gateway_reference) && !reported.has(contract.gateway_reference)
  )
  return {
    name: `every approval ordered or reported (${contracts.length} approvals)`,
    problems: lost.map(
      (contract) => `contract ${contract.gateway_reference} (session ${contract.reference}): no order, not reported`
    ),
    count: lost.length,
  }
}

/**
 * Captured and refunded, total and one by one, equal on both sides for every contract; where a
 * record is in doubt, the totals differ by exactly what some of those records name (one side made
 * or counts the movement, the other does not), or not at all.
 */
export function ledgersAgree(contracts: ContractView[], books: MedusaBooks[], records: PaymentRecords): Check {
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
    const doubtful = {
      capture: inDoubtOf(records, entry.paymentId, "capture"),
      refund: inDoubtOf(records, entry.paymentId, "refund"),
    }
    const agree =
      doubtful.capture.length + doubtful.refund.length
        ? explained(lender.captured, medusa.captured, doubtful.capture) &&
          explained(lender.refunded, medusa.refunded, doubtful.refund)
        : JSON.stringify(lender) === JSON.stringify(medusa)
    if (!agree) {
      const named = [...doubtful.capture, ...doubtful.refund].join(", ")
      problems.push(
        `contract ${contract.gateway_reference}: lender ${JSON.stringify(lender)}, Medusa ${JSON.stringify(medusa)}${named ? `, in doubt ${named}` : ""}`
      )
    }
  }
  return {
    name: `Medusa's ledger equals the lender's for every contract, or an in-doubt record names the difference (${books.length})`,
    problems,
  }
}

/** A payment's money records by payment id. */
export type PaymentRecords = Map<string, PayBrightMoneyRecord[]>

/** The amounts of a payment's records of this kind in doubt. */
export function inDoubtOf(records: PaymentRecords, paymentId: string | undefined, kind: PayBrightMoneyRecord["kind"]) {
  return unconcluded(records.get(paymentId ?? "") ?? [], kind).inDoubt.map((record) => record.amount)
}

/**
 * Whether the lender's total less Medusa's is made of in-doubt amounts, in cents: each record in
 * doubt may be counted by the lender and not by Medusa (+), by Medusa and not by the lender (-; a
 * call that never reached the lender while Medusa kept its Capture), or by both or neither (0).
 */
function explained(lender: string, medusa: string, inDoubt: string[]): boolean {
  const difference = cents(lender) - cents(medusa)
  let sums = new Set([0])
  for (const amount of inDoubt) {
    sums = new Set([...sums].flatMap((sum) => [sum, sum + cents(amount), sum - cents(amount)]))
  }
  return sums.has(difference)
}

/** A non-negative two-decimal amount as whole cents, read from its digits (never through a float). */
function cents(amount: string): number {
  const [units, decimals = ""] = amount.split(".")
  return Number(units) * 100 + Number(decimals.padEnd(2, "0").slice(0, 2))
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

/** No process let a failure escape (killed processes log nothing: SIGKILL leaves no last words). */
export function nothingUnhandled(logs: { role: string; unhandled: string[] }[]): Check {
  return {
    name: `no unhandled rejection or exception in any process (${logs.map((log) => log.role).join(", ")})`,
    problems: logs.flatMap((log) => log.unhandled.map((line) => `${log.role}: ${line.slice(0, 300)}`)),
  }
}

/** No secret of the store's (by name) appears in any process's log. */
export function noSecretLogged(logs: { role: string; secrets: string[] }[]): Check {
  return {
    name: "nothing secret in any log (the lender's token and Basic credential, the store's secrets)",
    problems: logs.flatMap((log) => log.secrets.map((name) => `${log.role} logged ${name}`)),
  }
}

/** No shopper coming back from the lender met a 5xx. */
export function noReturnFailed(runs: CheckoutRun[]): Check {
  return {
    name: "no shopper return answered with a 5xx",
    problems: runs
      .filter((run) => run.returnErrors.length)
      .map((run) => `checkout ${run.index}: return answered ${run.returnErrors.join(", ")}`),
  }
}

function sorted(amounts: string[]) {
  return [...amounts].sort()
}
