/**
 * The error lines of a Medusa process's log: what its logger wrote at level error (or above),
 * and what Node printed for an unhandled rejection or exception. ANSI colours are stripped first.
 */
export function errorLines(log: string): string[] {
  // eslint-disable-next-line no-control-regex
  const plain = log.replace(/\x1b\[[0-9;]*m/g, "")
  return plain
    .split("\n")
    .filter((line) => /^\s*(error|fatal|panic)\b/i.test(line) || /unhandled(rejection| promise)|uncaught/i.test(line))
}

/** Orders the store placed by delivering an unplaced approval to itself again (the every-minute job's log lines). */
export function approvalsPlacedByStoreRetry(log: string): number {
  return [...log.matchAll(/unplaced approvals swept: (\d+) ordered/g)].reduce(
    (total, match) => total + Number(match[1]),
    0
  )
}

/** Lines Node writes when a process lets a failure escape: no fault excuses these. */
export function unhandledLines(log: string): string[] {
  return log.split("\n").filter((line) => /unhandled(rejection| promise)|uncaught/i.test(line))
}

/** Which of the named secrets appear in a log, by name (the values are never printed). */
export function secretsIn(log: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets)
    .filter(([, value]) => value.length >= 8 && log.includes(value))
    .map(([name]) => name)
}
