import type { ContractView } from "../../src/lenders/paybright/simulator"
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
  /** Lender movements beyond those asked for, and approvals neither ordered nor reported, as the checks counted them. */
  doubles: number
  lost: number
  started: number
}

/** The suite's closing table: what was done to the store, and what came of every contract. */
export function printTable(outcome: Outcome) {
  const { injected, runs, books, contracts, reported, records } = outcome
  const all = [...records.values()].flat()
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
    ["doubles", outcome.doubles],
    ["lost", outcome.lost],
    ["time (checkouts to last check)", `${Math.floor(seconds / 60)}m ${seconds % 60}s`],
  ]
  const width = Math.max(...rows.map(([name]) => name.length))
  console.log("")
  console.log(`| ${"".padEnd(width)} | value |`)
  console.log(`|${"-".repeat(width + 2)}|-------|`)
  for (const [name, value] of rows) console.log(`| ${name.padEnd(width)} | ${String(value).padStart(5)} |`)
}
