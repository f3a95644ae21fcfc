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
    const ranks = new Map(tests.map((test) => [test.path, rankOf(test, recorded, this.time(test))]))
    for (const test of tests) test.duration = ranks.get(test.path).duration
    return tests.sort((a, b) => {
      const failedA = this.hasFailed(a)
      if (failedA !== this.hasFailed(b)) return failedA ? -1 : 1
      return ranks.get(b.path).weight - ranks.get(a.path).weight
    })
  }
}

const ROOT = path.resolve(__dirname, "..")
const TIMED = 1
const NEW = 2

/** Each integration file's seconds when they were last recorded, by its path from the project's root. */
function recordedSeconds() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, "test-durations.json"), "utf8")).seconds ?? {}
  } catch {
    return {}
  }
}

/**
 * A new integration file (neither recorded nor timed by jest) first, as jest puts a new file first;
 * then every file with a duration, the longest first: an integration file's recorded seconds, or
 * jest's time; then the unit files jest has not timed, by bytes.
 */
function rankOf(test, recorded, jestMs) {
  const unit = test.context.config.displayName?.name === "unit"
  const seconds = unit ? undefined : recorded[path.relative(ROOT, test.path)]
  const duration = seconds === undefined ? jestMs : seconds * 1000
  if (duration != null) return { duration, weight: TIMED * 1e12 + duration }
  return unit ? { weight: fs.statSync(test.path).size } : { weight: NEW * 1e12 }
}

module.exports = LongestFirst
