#!/usr/bin/env node
import { execFileSync, spawnSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"

/**
 * `npm run test:medusa-releases`: the plugin against the Medusa releases its peerDependencies
 * accept. For each release it copies the project to a temporary directory, pins every `@medusajs/*`
 * package that follows Medusa's release number to that release (the UI kit to the version that
 * release asks for), installs, then runs the type check and what `npm test` runs (the unit and
 * integration suites). Ends with one line per release and `N passed, N failed` over all of them.
 *
 *   npm run test:medusa-releases                        the oldest release the peers accept and the newest of each minor
 *   npm run test:medusa-releases -- --oldest            the oldest only
 *   npm run test:medusa-releases -- --releases 2.18.0,2.20.1
 *   npm run test:medusa-releases -- --skip-locked       leave out the release package-lock.json holds (npm test runs it)
 *   npm run test:medusa-releases -- --keep              keep each release's copy (its path is printed)
 *   npm run test:medusa-releases -- --oldest -- integration-tests/http/payment-lock.spec.ts  jest arguments
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const options = parseArguments(process.argv.slice(2))
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"))
const locked = pkg.devDependencies["@medusajs/medusa"]
const range = pkg.peerDependencies["@medusajs/medusa"]

let releases = options.releases ?? defaultReleases(acceptedReleases(range), options.oldest)
if (options.skipLocked) releases = releases.filter((release) => release !== locked)
console.log(`Medusa: peerDependencies accept ${range}; testing ${releases.join(", ") || "nothing"}`)

const results = releases.map(testRelease)
console.log("")
for (const result of results) console.log(result.summary)
const passed = results.reduce((sum, result) => sum + result.passed, 0)
const failed = results.reduce((sum, result) => sum + result.failed, 0)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 && results.every((result) => result.ok) ? 0 : 1)

function parseArguments(args) {
  const parsed = { releases: undefined, oldest: false, skipLocked: false, keep: false, jest: [] }
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]
    if (arg === "--") {
      parsed.jest = args.slice(index + 1)
      break
    } else if (arg === "--releases") {
      parsed.releases = (args[++index] ?? "").split(",").filter(Boolean)
      if (!parsed.releases.length) usage("--releases needs a comma-separated list, e.g. 2.18.0,2.21.2")
    } else if (arg.startsWith("--releases=")) {
      parsed.releases = arg.slice("--releases=".length).split(",").filter(Boolean)
    } else if (arg === "--oldest") parsed.oldest = true
    else if (arg === "--skip-locked") parsed.skipLocked = true
    else if (arg === "--keep") parsed.keep = true
    else usage(`unknown argument ${arg}`)
  }
  return parsed
}

function usage(problem) {
  console.error(
    `${problem}\nusage: medusa-releases.mjs [--oldest | --releases X.Y.Z,...] [--skip-locked] [--keep] [-- jest args]`
  )
  console.log("0 passed, 1 failed")
  process.exit(1)
}

/** Published releases (no preview or snapshot) inside the peer range, oldest first: npm reads the range. */
function acceptedReleases(peerRange) {
  const listed = JSON.parse(
    execFileSync("npm", ["view", `@medusajs/medusa@${peerRange}`, "version", "--json"], { encoding: "utf8" })
  )
  const versions = (Array.isArray(listed) ? listed : [listed]).filter((version) => /^\d+\.\d+\.\d+$/.test(version))
  if (!versions.length) throw new Error(`no published @medusajs/medusa release satisfies "${peerRange}"`)
  return versions.sort(compareVersions)
}

/** The oldest accepted release, then the newest of each minor (the oldest alone with --oldest). */
function defaultReleases(accepted, oldestOnly) {
  if (oldestOnly) return [accepted[0]]
  const newestOfMinor = new Map()
  for (const version of accepted) newestOfMinor.set(version.split(".").slice(0, 2).join("."), version)
  return [...new Set([accepted[0], ...newestOfMinor.values()])]
}

function compareVersions(a, b) {
  const [x, y] = [a, b].map((version) => version.split(".").map(Number))
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]
}

function testRelease(release) {
  const started = Date.now()
  console.log(`\n=== Medusa ${release} ===`)
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `paybright-medusa-${release}-`))
  let typecheck = false
  let counts = [0, 0]
  let status = 1
  let problem = ""
  try {
    copyProject(work)
    const moved = pinMedusa(path.join(work, "package.json"), release)
    forgetLockedMedusa(path.join(work, "package-lock.json"), moved)
    run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], work)
    const installed = JSON.parse(fs.readFileSync(path.join(work, "node_modules/@medusajs/medusa/package.json"), "utf8"))
    if (installed.version !== release)
      throw new Error(`installed @medusajs/medusa ${installed.version}, not ${release}`)

    typecheck = spawnSync("npm", ["run", "typecheck"], { cwd: work, stdio: "inherit" }).status === 0
    const tests = spawnSync(process.execPath, ["scripts/test.mjs", ...options.jest], {
      cwd: work,
      encoding: "utf8",
      maxBuffer: 512 * 1024 * 1024,
      stdio: ["ignore", "pipe", "inherit"],
    })
    process.stdout.write(tests.stdout)
    counts = closingCount(tests.stdout)
    status = tests.status ?? 1
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error)
    console.error(problem)
  } finally {
    if (options.keep) console.log(`Medusa ${release}: the copy is kept in ${work}`)
    else fs.rmSync(work, { recursive: true, force: true })
  }
  const passed = counts[0] + (typecheck ? 1 : 0)
  const failed = counts[1] + (typecheck ? 0 : 1) + (status !== 0 && counts[1] === 0 ? 1 : 0)
  // Named like the test runner's failures, so CI's log repeats them at its end.
  if (!typecheck) console.log(`failed: Medusa ${release}: the type check`)
  if (problem) console.log(`failed: Medusa ${release}: ${problem}`)
  const minutes = ((Date.now() - started) / 60_000).toFixed(1)
  const summary =
    `Medusa ${release}: type check ${typecheck ? "passed" : "failed"}, ` +
    `tests ${counts[0]} passed, ${counts[1]} failed, ${minutes} min${problem ? ` (${problem})` : ""}`
  return { passed, failed, ok: failed === 0, summary }
}

/** The files git would clone (tracked, plus new files not ignored), without node_modules or builds. */
function copyProject(target) {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\0")
    .filter(Boolean)
  for (const file of files) {
    const from = path.join(root, file)
    if (!fs.existsSync(from)) continue
    fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true })
    fs.copyFileSync(from, path.join(target, file))
  }
}

/**
 * Medusa publishes its packages in lockstep, except the UI kit: every dev dependency on the locked
 * release moves to `release`, and the UI kit to the version that release's packages ask for.
 * Returns the names that moved.
 */
function pinMedusa(file, release) {
  const manifest = JSON.parse(fs.readFileSync(file, "utf8"))
  const peers = JSON.parse(
    execFileSync("npm", ["view", `@medusajs/draft-order@${release}`, "peerDependencies", "--json"], {
      encoding: "utf8",
    })
  )
  const moved = []
  for (const name of Object.keys(manifest.devDependencies)) {
    if (!name.startsWith("@medusajs/")) continue
    const version = manifest.devDependencies[name] === locked ? release : peers[name]
    if (version && version !== manifest.devDependencies[name]) {
      manifest.devDependencies[name] = version
      moved.push(name)
    }
  }
  fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
  return moved
}

/**
 * The lock holds the locked release throughout: the entries that moved go, with everything nested
 * in their folders (their own dependencies at the locked release's versions, such as the admin
 * bundler's vite), so npm resolves them afresh.
 */
function forgetLockedMedusa(file, moved) {
  if (!moved.length) return
  const lock = JSON.parse(fs.readFileSync(file, "utf8"))
  const forgotten = Object.keys(lock.packages).filter((location) => {
    const name = location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length)
    return (
      location.includes("node_modules/@medusajs/") &&
      (moved.includes(name) || lock.packages[location].version === locked)
    )
  })
  for (const location of Object.keys(lock.packages)) {
    if (forgotten.some((folder) => location === folder || location.startsWith(`${folder}/node_modules/`))) {
      delete lock.packages[location]
    }
  }
  fs.writeFileSync(
    file,
    `${JSON.stringify(lock, null, 2)}
`
  )
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: "inherit" })
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status})`)
}

/** The test run's closing `N passed, N failed`; a run without one counts as one failure. */
function closingCount(output) {
  const line = output
    .split("\n")
    .filter((text) => /^\d+ passed, \d+ failed/.test(text))
    .pop()
  if (!line) return [0, 1]
  const [, passed, failed] = /^(\d+) passed, (\d+) failed/.exec(line)
  return [Number(passed), Number(failed)]
}
