import { markdownTable } from "./markdown"
import { performance } from "node:perf_hooks"

export type Measurement = { name: string; runs: number; perSecond: number; p50: number; p95: number; p99: number }

/**
 * Runs `work` for a warm-up, then `runs` times one after another, timing each run; answers the
 * throughput and the latency percentiles in milliseconds.
 */
export async function measure(
  name: string,
  runs: number,
  work: (run: number) => unknown | Promise<unknown>
): Promise<Measurement> {
  for (let run = 0; run < Math.min(100, Math.ceil(runs / 10)); run++) await work(run)
  const times: number[] = []
  const started = performance.now()
  for (let run = 0; run < runs; run++) {
    const before = performance.now()
    await work(run)
    times.push(performance.now() - before)
  }
  return summarize(name, times, performance.now() - started)
}

/**
 * `concurrency` callers each running `work` back to back until `runs` calls are done: the
 * throughput of a server under that many simultaneous requests, and each call's latency.
 */
export async function measureConcurrent(
  name: string,
  runs: number,
  concurrency: number,
  work: (run: number) => Promise<unknown>
): Promise<Measurement> {
  const times: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < runs) {
        const run = next++
        const before = performance.now()
        await work(run)
        times.push(performance.now() - before)
      }
    })
  )
  return summarize(name, times, performance.now() - started)
}

function summarize(name: string, times: number[], totalMs: number): Measurement {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (quantile: number) => sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))]
  return {
    name,
    runs: sorted.length,
    perSecond: (sorted.length * 1000) / totalMs,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
  }
}

/** The measurements as a Markdown table. */
export function table(measurements: Measurement[]): string {
  return markdownTable(
    ["benchmark", "runs", "ops/s", "p50 ms", "p95 ms", "p99 ms"],
    measurements.map((m) => [
      m.name,
      String(m.runs),
      m.perSecond.toFixed(0),
      m.p50.toFixed(3),
      m.p95.toFixed(3),
      m.p99.toFixed(3),
    ])
  )
}
