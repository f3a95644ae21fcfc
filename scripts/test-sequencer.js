const fs = require("node:fs")
const path = require("node:path")
const Sequencer = require("@jest/test-sequencer").default

/**
 * The order jest starts the test files in. Jest starts the longest first when it has timed them
 * before, so that no worker is left alone on a long file at the end; on a fresh clone it has no
 * times and starts the largest files first instead. A spec that runs several `*.suite.ts` on one
 * app (onOneApp) is a few lines long and the longest file of all, so it started last. Here, until
 * jest has times, a file weighs what it runs: its own size plus the suites it imports
 * (`*.suite.ts`, `*-suite.ts`), and each integration file, which boots a Medusa app or more,
 * comes before any unit file.
 */
class LongestFirst extends Sequencer {
  sort(tests) {
    const weights = new Map()
    const weight = (test) => {
      if (!weights.has(test.path)) weights.set(test.path, weighOf(test))
      return weights.get(test.path)
    }
    for (const test of tests) test.duration = this.time(test)
    return tests.sort((a, b) => {
      const failedA = this.hasFailed(a)
      if (failedA !== this.hasFailed(b)) return failedA ? -1 : 1
      // As jest does: a file it has not timed yet (a new one) before those it has.
      const timedA = a.duration != null
      if (timedA !== (b.duration != null)) return timedA ? 1 : -1
      return timedA ? b.duration - a.duration : weight(b) - weight(a)
    })
  }
}

/** Bytes of the file and of the suites it imports; integration files first. */
function weighOf(test) {
  const text = fs.readFileSync(test.path, "utf8")
  let bytes = Buffer.byteLength(text)
  for (const [, suite] of text.matchAll(/from "(\.\.?\/[\w/-]+[.-]suite)"/g)) {
    bytes += fs.statSync(path.resolve(path.dirname(test.path), `${suite}.ts`)).size
  }
  const unit = test.context.config.displayName?.name === "unit"
  return (unit ? 0 : Number.MAX_SAFE_INTEGER / 2) + bytes
}

module.exports = LongestFirst
