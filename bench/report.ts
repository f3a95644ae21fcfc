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

/** A latency's p50 and p99 rows, from the samples each contender's role reads. */
const latencyRows = (figure: string, samples: (f: ContenderFigures, role: Role) => number[]): Row[] =>
  (
    [
      [0.5, "p50"],
      [0.99, "p99"],
    ] as const
  ).map(([quantile, name]) => ({
    figure: `${figure} ${name}`,
    value: (f, role) => percentile(samples(f, role), quantile),
    unit: "ms",
  }))

const ROWS: Row[] = [
  ...latencyRows("session creation", (f) => f.sessionMs),
  ...latencyRows("approval to order", (f) => f.approvalMs),
  ...latencyRows("  … Stripe: storefront completion", (f, role) =>
    role === "peer" ? f.alternativeApprovalMs : f.approvalMs
  ),
  // The floor has one way to the order; the others' second way is the storefront's (the peer) or
  // the shopper's return racing the lender's callback (PayBright).
  ...latencyRows("shopper lands on the order", (f, role) =>
    role === "floor" ? f.approvalMs : f.alternativeApprovalMs
  ),
  ...latencyRows("capture", (f) => f.captureMs),
  ...CONCURRENCY_LEVELS.map((level) => ({
    figure: `checkouts/min at concurrency ${level}`,
    value: (f: ContenderFigures) => f.checkoutsPerMinute[level],
    unit: "/min",
  })),
  { figure: "remote calls before capture", value: (f) => total(f.callsBeforeCapture), unit: "calls" },
  { figure: "remote calls per capture", value: (f) => total(f.callsPerCapture), unit: "calls" },
  {
    figure: "database statements per approval to order p50",
    value: (f) => percentile(f.queriesPerApproval, 0.5),
    unit: "statements",
  },
  {
    figure: "database statements per capture p50",
    value: (f) => percentile(f.queriesPerCapture, 0.5),
    unit: "statements",
  },
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

/** A target on a ratio of two figures, met or not on the median of the rounds' ratios. */
type RatioTarget = { target: string; ratio: (figures: Figures) => number; met: (ratio: number) => boolean }

const p = (values: number[], quantile: number) => percentile(values, quantile)
const atMost = (limit: number) => (ratio: number) => ratio <= limit
const atLeast = (limit: number) => (ratio: number) => ratio >= limit

const RATIO_TARGETS: RatioTarget[] = [
  {
    target: "in-store: approval to order at most 1.0× the floor's cart completion at p50",
    ratio: (f) => p(f.inStore.approvalMs, 0.5) / p(f.system.approvalMs, 0.5),
    met: atMost(1),
  },
  {
    target: "in-store: approval to order at most 1.1× the floor's cart completion at p95",
    ratio: (f) => p(f.inStore.approvalMs, 0.95) / p(f.system.approvalMs, 0.95),
    met: atMost(1.1),
  },
  {
    target: "virtual card: approval to order at most 1.0× the peer's storefront completion at p50",
    ratio: (f) => p(f.virtualCard.approvalMs, 0.5) / p(f.stripe.alternativeApprovalMs, 0.5),
    met: atMost(1),
  },
  {
    target: "in-store: capture at most 1.15× the peer's capture at p50",
    ratio: (f) => p(f.inStore.captureMs, 0.5) / p(f.stripe.captureMs, 0.5),
    met: atMost(1.15),
  },
  ...(["inStore", "virtualCard"] as const).flatMap((key): RatioTarget[] => {
    const mode = key === "inStore" ? "in-store" : "virtual card"
    return [
      {
        target: `${mode}: session creation within 1.10× of the floor (the larger of the p50 and p99 ratios)`,
        ratio: (f) =>
          Math.max(
            p(f[key].sessionMs, 0.5) / p(f.system.sessionMs, 0.5),
            p(f[key].sessionMs, 0.99) / p(f.system.sessionMs, 0.99)
          ),
        met: atMost(1.1),
      },
      {
        target: `${mode}: approval to order within 1.10× of the peer's webhook (p50)`,
        ratio: (f) => p(f[key].approvalMs, 0.5) / p(f.stripe.approvalMs, 0.5),
        met: atMost(1.1),
      },
      {
        target: `${mode}: checkouts per minute at concurrency 50 at least 1.05× the floor (system provider)`,
        ratio: (f) => f[key].checkoutsPerMinute[50] / f.system.checkoutsPerMinute[50],
        met: atLeast(1.05),
      },
      {
        target: `${mode}: checkouts per minute at concurrency 50 at least 0.9× the peer`,
        ratio: (f) => f[key].checkoutsPerMinute[50] / f.stripe.checkoutsPerMinute[50],
        met: atLeast(0.9),
      },
    ]
  }),
]

/** The targets, reported (never asserted anywhere): each ratio's median over the rounds, with every round's. */
export function targets(rounds: Figures[]): TargetVerdict[] {
  const verdicts: TargetVerdict[] = RATIO_TARGETS.map(({ target, ratio, met }) => {
    const ratios = rounds.map(ratio)
    const middle = median(ratios)
    return {
      target,
      measured: `${middle.toFixed(2)}× (rounds: ${ratios.map((value) => `${value.toFixed(2)}×`).join(", ")})`,
      met: met(middle),
    }
  })
  const inStore = rounds.map((round) => round.inStore)
  verdicts.push({
    target: "in-store: no remote call before capture, one per capture (the lender's capture)",
    measured: `${describeCalls(inStore[0].callsBeforeCapture)} before; ${describeCalls(inStore[0].callsPerCapture)} per capture`,
    met: inStore.every(
      (figures) =>
        total(figures.callsBeforeCapture) === 0 &&
        sameCalls(figures.callsPerCapture, { "lender POST /api/v2/instore/:contract/capture": 1 })
    ),
  })
  const card = rounds.map((round) => round.virtualCard)
  verdicts.push({
    target: "virtual card: one card retrieval to confirm; one retrieval and one charge per capture",
    measured: `${describeCalls(card[0].callsBeforeCapture)} before; ${describeCalls(card[0].callsPerCapture)} per capture`,
    met: card.every(
      (figures) =>
        sameCalls(figures.callsBeforeCapture, { "lender GET /api/vcn/pan": 1 }) &&
        sameCalls(figures.callsPerCapture, { "lender GET /api/vcn/pan": 1, "stripe POST /v1/payment_intents": 1 })
    ),
  })
  return verdicts
}

/**
 * The rounds as one: latency and statement samples pooled, the median round's checkouts per minute,
 * the first round's calls.
 */
export function pooled(rounds: Figures[]): Figures {
  const keys = Object.keys(rounds[0]) as Contender["key"][]
  return Object.fromEntries(
    keys.map((key) => {
      const each = rounds.map((round) => round[key])
      const figures: ContenderFigures = {
        sessionMs: each.flatMap((figures) => figures.sessionMs),
        approvalMs: each.flatMap((figures) => figures.approvalMs),
        alternativeApprovalMs: each.flatMap((figures) => figures.alternativeApprovalMs),
        captureMs: each.flatMap((figures) => figures.captureMs),
        checkoutsPerMinute: Object.fromEntries(
          CONCURRENCY_LEVELS.map((level) => [level, median(each.map((figures) => figures.checkoutsPerMinute[level]))])
        ),
        callsBeforeCapture: each[0].callsBeforeCapture,
        callsPerCapture: each[0].callsPerCapture,
        queriesPerApproval: each.flatMap((figures) => figures.queriesPerApproval),
        queriesPerCapture: each.flatMap((figures) => figures.queriesPerCapture),
      }
      return [key, figures]
    })
  ) as Figures
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
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
  if (unit === "statements") return value.toFixed(0)
  if (unit === "/min") return value.toFixed(0)
  return `${value.toFixed(1)} ms`
}

function ratio(mine: number, reference: number) {
  if (!Number.isFinite(mine) || !Number.isFinite(reference) || reference === 0) return "–"
  return `${(mine / reference).toFixed(2)}×`
}
