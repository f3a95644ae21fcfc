const fs = require("node:fs")
const path = require("node:path")
const Sequencer = require("@jest/test-sequencer").default

/**
 * The order jest starts the test files in: the longest first, so that no worker is left alone on a
 * long file at the end. An integration file weighs the seconds it took when they were last recorded
 * (`TEST_RECORD_DURATIONS=1 npm test` writes scripts/test-durations.json), before jest's own times:
 * jest also times a run filtered with -t, after which the longest file would look short and start
 * last. Other files go by jest's times; without them (a fresh clone, a new file), each integration
 * file comes before any unit file, one not recorded yet (a new file) first, as jest puts a new file
 * first, and the unit files by size.
 */
class LongestFirst extends Sequencer {
  sort(tests) {
    const recorded = recordedSeconds()
    const weights = new Map()
    const weight = (test) => {
      if (!weights.has(test.path)) weights.set(test.path, weighOf(test, recorded))
      return weights.get(test.path)
    }
    for (const test of tests) {
      const seconds = recorded[path.relative(ROOT, test.path)]
      test.duration = seconds === undefined ? this.time(test) : seconds * 1000
    }
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

const ROOT = path.resolve(__dirname, "..")
const UNIT = 0
const RECORDED = 1
const NEW = 2

/** Each integration file's seconds when they were last recorded, by its path from the project's root. */
function recordedSeconds() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, "test-durations.json"), "utf8")).seconds ?? {}
  } catch {
    return {}
  }
}

/** Integration files first, a new one before the recorded ones, those by their seconds; unit files by bytes. */
function weighOf(test, recorded) {
  const unit = test.context.config.displayName?.name === "unit"
  const seconds = recorded[path.relative(ROOT, test.path)]
  const rank = unit ? UNIT : seconds === undefined ? NEW : RECORDED
  const measure = unit ? fs.statSync(test.path).size : (seconds ?? 0)
  return rank * 1e9 + measure
}

module.exports = LongestFirst
