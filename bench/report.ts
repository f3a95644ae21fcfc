import os from "node:os"
import type { Contender } from "./contenders"
import type { ContenderFigures } from "./store-bench"
import { CONCURRENCY_LEVELS } from "./store-bench"
import { markdownTable } from "./markdown"

export type Figures = Record<Contender["key"], ContenderFigures>

type Role = "floor" | "peer" | "plugin"
type Row = { figure: string; value: (figures: ContenderFigures, role: Role) => number; unit: string }

const percentile = (values: number[], quantile: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] ?? NaN
}
const total = (calls: Record<string, number>) => Object.values(calls).reduce((sum, count) => sum + count, 0)

const ROWS: Row[] = [
  { figure: "session creation p50", value: (f) => percentile(f.sessionMs, 0.5), unit: "ms" },
  { figure: "session creation p99", value: (f) => percentile(f.sessionMs, 0.99), unit: "ms" },
  { figure: "approval to order p50", value: (f) => percentile(f.approvalMs, 0.5), unit: "ms" },
  { figure: "approval to order p99", value: (f) => percentile(f.approvalMs, 0.99), unit: "ms" },
  {
    figure: "  … Stripe: storefront completion p50",
    value: (f, role) => percentile(role === "peer" ? f.alternativeApprovalMs : f.approvalMs, 0.5),
    unit: "ms",
  },
  {
    figure: "  … Stripe: storefront completion p99",
    value: (f, role) => percentile(role === "peer" ? f.alternativeApprovalMs : f.approvalMs, 0.99),
    unit: "ms",
  },
  { figure: "capture p50", value: (f) => percentile(f.captureMs, 0.5), unit: "ms" },
  { figure: "capture p99", value: (f) => percentile(f.captureMs, 0.99), unit: "ms" },
  ...CONCURRENCY_LEVELS.map((level) => ({
    figure: `checkouts/min at concurrency ${level}`,
    value: (f: ContenderFigures) => f.checkoutsPerMinute[level],
    unit: "/min",
  })),
  { figure: "remote calls before capture", value: (f) => total(f.callsBeforeCapture), unit: "calls" },
  { figure: "remote calls per capture", value: (f) => total(f.callsPerCapture), unit: "calls" },
]

/** The one table: each figure for the floor, the peer and both PayBright modes, with PayBright's ratios to floor and peer. */
export function figuresTable(figures: Figures): string {
  const header = [
    "figure",
    "system (floor)",
    "Stripe (peer)",
    "PayBright in-store",
    "× floor",
    "× peer",
    "PayBright virtual card",
    "× floor",
    "× peer",
  ]
  const lines = ROWS.map((row) => {
    const floor = row.value(figures.system, "floor")
    const peer = row.value(figures.stripe, "peer")
    const cells = [row.figure, show(floor, row.unit), show(peer, row.unit)]
    for (const key of ["inStore", "virtualCard"] as const) {
      const mine = row.value(figures[key], "plugin")
      cells.push(show(mine, row.unit), ratio(mine, floor), ratio(mine, peer))
    }
    return cells
  })
  return markdownTable(header, lines)
}

/** Calls by endpoint, per order, for each contender. */
export function callsTable(figures: Figures, labels: Record<Contender["key"], string>): string {
  const lines: string[][] = []
  for (const key of Object.keys(figures) as Contender["key"][]) {
    for (const [phase, calls] of [
      ["before capture", figures[key].callsBeforeCapture],
      ["per capture", figures[key].callsPerCapture],
    ] as const) {
      const endpoints = Object.entries(calls)
        .map(([endpoint, count]) => `${count.toFixed(2)} × ${endpoint}`)
        .join("; ")
      lines.push([labels[key], phase, endpoints || "none"])
    }
  }
  return markdownTable(["provider", "when", "remote calls per order, by endpoint"], lines)
}

export type TargetVerdict = { target: string; measured: string; met: boolean }

/** The targets, reported (never asserted anywhere). */
export function targets(figures: Figures): TargetVerdict[] {
  const p = (values: number[], q: number) => percentile(values, q)
  const verdicts: TargetVerdict[] = []
  for (const key of ["inStore", "virtualCard"] as const) {
    const mode = key === "inStore" ? "in-store" : "virtual card"
    const mine = figures[key]
    const floor = figures.system
    const peer = figures.stripe
    const p50 = p(mine.sessionMs, 0.5) / p(floor.sessionMs, 0.5)
    const p99 = p(mine.sessionMs, 0.99) / p(floor.sessionMs, 0.99)
    verdicts.push({
      target: `${mode}: session creation within 1.10× of the floor at p50 and p99`,
      measured: `${p50.toFixed(2)}× at p50, ${p99.toFixed(2)}× at p99`,
      met: p50 <= 1.1 && p99 <= 1.1,
    })
    const approval = p(mine.approvalMs, 0.5) / p(peer.approvalMs, 0.5)
    verdicts.push({
      target: `${mode}: approval to order within 1.10× of the peer's webhook (p50)`,
      measured: `${approval.toFixed(2)}×`,
      met: approval <= 1.1,
    })
    const storefront = p(mine.approvalMs, 0.5) / p(peer.alternativeApprovalMs, 0.5)
    verdicts.push({
      target: `${mode}: approval to order within 1.10× of the peer's storefront completion (p50; stricter)`,
      measured: `${storefront.toFixed(2)}×`,
      met: storefront <= 1.1,
    })
    const throughputPeer = mine.checkoutsPerMinute[50] / peer.checkoutsPerMinute[50]
    verdicts.push({
      target: `${mode}: checkouts per minute at concurrency 50 at least 0.9× the peer`,
      measured: `${throughputPeer.toFixed(2)}×`,
      met: throughputPeer >= 0.9,
    })
    if (key === "inStore") {
      const throughputFloor = mine.checkoutsPerMinute[50] / floor.checkoutsPerMinute[50]
      verdicts.push({
        target: "in-store: checkouts per minute at concurrency 50 at least 0.9× the floor",
        measured: `${throughputFloor.toFixed(2)}×`,
        met: throughputFloor >= 0.9,
      })
    }
  }
  const inStore = figures.inStore
  verdicts.push({
    target: "in-store: no remote call before capture, one per capture (the lender's capture)",
    measured: `${describeCalls(inStore.callsBeforeCapture)} before; ${describeCalls(inStore.callsPerCapture)} per capture`,
    met:
      total(inStore.callsBeforeCapture) === 0 &&
      sameCalls(inStore.callsPerCapture, { "lender POST /api/v2/instore/:contract/capture": 1 }),
  })
  const card = figures.virtualCard
  verdicts.push({
    target: "virtual card: one card retrieval to confirm; one retrieval and one charge per capture",
    measured: `${describeCalls(card.callsBeforeCapture)} before; ${describeCalls(card.callsPerCapture)} per capture`,
    met:
      sameCalls(card.callsBeforeCapture, { "lender GET /api/vcn/pan": 1 }) &&
      sameCalls(card.callsPerCapture, { "lender GET /api/vcn/pan": 1, "stripe POST /v1/payment_intents": 1 }),
  })
  return verdicts
}

/** What the figures were measured on: processor, cores, memory, system, Node, and how busy the machine was. */
export function machine(loadBefore: number[], loadAfter: number[]): string {
  const cpus = os.cpus()
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(" / ")
  return [
    `${cpus[0]?.model ?? "unknown CPU"}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`,
    `${os.type()} ${os.release()}, Node ${process.version}`,
    `load average (1 / 5 / 15 min) ${load(loadBefore)} at the start, ${load(loadAfter)} at the end`,
  ].join("; ")
}

function describeCalls(calls: Record<string, number>) {
  const entries = Object.entries(calls)
  return entries.length ? entries.map(([endpoint, count]) => `${count.toFixed(2)} × ${endpoint}`).join(" + ") : "none"
}

function sameCalls(calls: Record<string, number>, expected: Record<string, number>) {
  const keys = new Set([...Object.keys(calls), ...Object.keys(expected)])
  return [...keys].every((key) => Math.abs((calls[key] ?? 0) - (expected[key] ?? 0)) < 1e-9)
}

function show(value: number, unit: string) {
  if (!Number.isFinite(value)) return "–"
  if (unit === "calls") return value.toFixed(2)
  if (unit === "/min") return value.toFixed(0)
  return `${value.toFixed(1)} ms`
}

function ratio(mine: number, reference: number) {
  if (!Number.isFinite(mine) || !Number.isFinite(reference) || reference === 0) return "–"
  return `${(mine / reference).toFixed(2)}×`
}
