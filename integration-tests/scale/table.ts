import type { ContractView } from "../../src/simulator"
import type { MedusaBooks } from "./books"
import type { CheckoutRun, PaymentRecords } from "./checks"
import { FAULT_KINDS, type InjectedFault } from "./faults"

type Outcome = {
  injected: InjectedFault[]
  runs: CheckoutRun[]
  books: MedusaBooks[]
  contracts: ContractView[]
  reported: Set<string>
  records: PaymentRecords
  started: number
}

/** The suite's closing table: what was done to the store, and what came of every contract. */
export function printTable(outcome: Outcome) {
  const { injected, runs, books, contracts, reported, records } = outcome
  const all = [...records.values()].flat()
  const ordered = new Set(books.map((entry) => entry.gatewayReference))
  const seconds = Math.round((Date.now() - outcome.started) / 1000)
  const rows: [string, string | number][] = [
    ...FAULT_KINDS.map((kind): [string, number] => [
      `faults: ${kind}`,
      injected.filter((fault) => fault.kind === kind && !fault.error).length,
    ]),
    ["checkouts", runs.length],
    ["orders", books.length],
    ["orphans (approved, no order, reported)", contracts.filter((c) => reported.has(c.gateway_reference)).length],
    ["captures at the lender", contracts.reduce((total, c) => total + c.captures.length, 0)],
    ["refunds at the lender", contracts.reduce((total, c) => total + c.refunds.length, 0)],
    ["records in doubt", all.filter((record) => record.state === "in_doubt").length],
    ["doubles", doubles(runs, contracts)],
    ["lost", contracts.filter((c) => !ordered.has(c.gateway_reference) && !reported.has(c.gateway_reference)).length],
    ["time (checkouts to last check)", `${Math.floor(seconds / 60)}m ${seconds % 60}s`],
  ]
  const width = Math.max(...rows.map(([name]) => name.length))
  console.log("")
  console.log(`| ${"".padEnd(width)} | value |`)
  console.log(`|${"-".repeat(width + 2)}|-------|`)
  for (const [name, value] of rows) console.log(`| ${name.padEnd(width)} | ${String(value).padStart(5)} |`)
}

/** Lender captures beyond the parcels shipped, and refunds beyond the one asked, over every contract. */
function doubles(runs: CheckoutRun[], contracts: ContractView[]): number {
  let extra = 0
  for (const run of runs) {
    const contract = contracts.find((candidate) => candidate.reference === run.sessionId)
    if (!contract) continue
    const refundsAsked = run.index % 10 === 0 && run.refundOutcome !== "not refunded: a capture in doubt" ? 1 : 0
    extra += Math.max(0, contract.captures.length - run.shipments) + Math.max(0, contract.refunds.length - refundsAsked)
  }
  return extra
}
