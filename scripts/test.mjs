#!/usr/bin/env node
import { spawn } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { startPostgres } from "./embedded-postgres.mjs"
import { processTable } from "./process-table.mjs"

/**
 * `npm test`: every test, with nothing to install or start by hand. Uses the PostgreSQL named by
 * DB_HOST/DB_* or DATABASE_URL, or starts a throwaway one (embedded-postgres), runs jest, and
 * ends with the line `N passed, N failed` (`, N skipped` when some were).
 *
 *   npm test                                   unit and integration projects
 *   npm test -- integration-tests/http/x.spec.ts   any jest arguments
 *   npm run test:integration                   (`--integration` first: the integration project)
 *   npm run test:redis                         (`--redis` first: the suite that needs a redis-server)
 *   npm run walks                              (`--walks` first: the folders each main act crosses)
 *
 * TEST_RECORD_DURATIONS=1 writes how long each integration file took into
 * scripts/test-durations.json, which orders the files on a fresh clone (scripts/test-sequencer.js).
 *
 * TEST_TIMEOUT_MINUTES (default 75) bounds the whole run. TEST_WORKERS (default 3) is how many test
 * files run at once, each in its own jest worker with its own databases (Medusa's test runner names
 * them after the worker); TEST_WORKERS=1 runs them one after another in jest's own process. Three
 * on two cores: the tests wait at times (a lender's timeout, another process's boot, a browser's
 * page), and a third file uses the core the waiting one leaves.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const started = Date.now()
const args = process.argv.slice(2)
/** Which jest projects a run covers: `npm test` never runs the Redis suite, which needs a redis-server. */
const PROJECTS = { "--integration": ["integration"], "--redis": ["redis"], "--walks": ["walks"] }
const selected = PROJECTS[args[0]]
// Last: jest reads every word after --selectProjects as a project name.
const jestArgs = [...(selected ? args.slice(1) : args), "--selectProjects", ...(selected ?? ["unit", "integration"])]

const env = { LOG_LEVEL: "error", ...process.env, NODE_ENV: "test", TZ: "UTC", MEDUSA_DISABLE_TELEMETRY: "true" }
// medusa-config.ts locks through Redis when REDIS_URL is set: only the Redis suite may use it.
if (!selected?.includes("redis")) delete env.REDIS_URL
const nodeOptions = (process.env.NODE_OPTIONS ?? "").split(/\s+/).filter(Boolean)
env.NODE_OPTIONS = [
  ...nodeOptions,
  ...(nodeOptions.includes("--experimental-vm-modules") ? [] : ["--experimental-vm-modules"]),
].join(" ")

const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), "paybright-jest-"))
const resultsFile = path.join(resultsDir, "results.json")
/** Lines of each failure printed again at the end. */
const WHY_LINES = 6
/** How many of the longest files a run names at its end. */
const SLOWEST = 40
// The demo and the packaging tests install the plugin from its tarball several times a run: the
// first packs it, the others install that tarball while the sources are unchanged (demo/store.ts).
env.PAYBRIGHT_PACK_CACHE ??= path.join(resultsDir, "packs")
let postgres
let jest
let packer
let finishing = false

for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
]) {
  process.on(signal, () => finish(code, `interrupted (${signal})`))
}
const timeoutMinutes = Number(process.env.TEST_TIMEOUT_MINUTES) || 75
setTimeout(
  () => finish(1, `gave up: the run took more than ${timeoutMinutes} minutes (TEST_TIMEOUT_MINUTES)`),
  timeoutMinutes * 60_000
).unref()

try {
  if (args.length === 0 || (args.length === 1 && args[0] === "--integration")) packer = packAhead()
  if (!env.DB_HOST && !env.DATABASE_URL) {
    process.stdout.write("Starting PostgreSQL (embedded-postgres)... ")
    postgres = await startPostgres({ inMemory: true })
    console.log(`ready on localhost:${postgres.port}${postgres.inMemory ? ", its data in memory" : ""}`)
    Object.assign(env, {
      DB_HOST: postgres.host,
      DB_PORT: String(postgres.port),
      DB_USERNAME: postgres.user,
      DB_PASSWORD: postgres.password,
    })
    await migrateTemplate(postgres.url("template1"))
    // A demo's database made on this server is a copy of that template: nothing left to migrate (demo/database.ts).
    env.PAYBRIGHT_MIGRATED_TEMPLATE_SERVER = `${postgres.host}:${postgres.port}`
  } else if (!env.DB_HOST) {
    // medusaIntegrationTestRunner reads only DB_*.
    const url = new URL(env.DATABASE_URL)
    Object.assign(env, {
      DB_HOST: url.hostname,
      DB_PORT: url.port || "5432",
      DB_USERNAME: decodeURIComponent(url.username),
      DB_PASSWORD: decodeURIComponent(url.password),
    })
  }
  env.DB_USERNAME ||= "postgres"

  // --forceExit: Medusa's Redis locking provider leaves its acquisition timeout (up to a minute)
  // running after every lock it takes, which would keep jest alive that long after the last test.
  // Processes the tests started are still found and reported below.
  const jestBin = path.join(root, "node_modules/jest/bin/jest.js")
  const code = await runJest([
    "--experimental-vm-modules",
    jestBin,
    ...workerArgs(),
    "--forceExit",
    "--json",
    `--outputFile=${resultsFile}`,
    ...jestArgs,
  ])
  await finish(code)
} catch (error) {
  console.error(error instanceof Error ? error.stack : error)
  await finish(1)
}

/**
 * Each integration file boots its app on a database of its own, created by Medusa's test runner
 * with a plain CREATE DATABASE, that is, as a copy of `template1`. Migrating `template1` once here
 * (a throwaway server, never one the caller named) leaves every file's migrations and link sync
 * with nothing to do, where each would otherwise run all of Medusa's migrations again. A suite
 * whose configuration adds a module (RBAC) still has that module's migrations run by the runner.
 */
async function migrateTemplate(databaseUrl) {
  const begun = Date.now()
  process.stdout.write("Migrating the template database... ")
  const cli = path.join(root, "node_modules/@medusajs/cli/cli.js")
  await new Promise((resolve, reject) => {
    let text = ""
    const child = spawn(process.execPath, [cli, "db:migrate", "--skip-scripts", "--execute-all-links"], {
      cwd: root,
      env: { ...env, DATABASE_URL: databaseUrl, NODE_OPTIONS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    })
    child.stdout.on("data", (chunk) => (text += chunk))
    child.stderr.on("data", (chunk) => (text += chunk))
    child.on("error", reject)
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`medusa db:migrate exited ${code}:\n${text.slice(-3000)}`))
    )
  })
  console.log(`done in ${((Date.now() - begun) / 1000).toFixed(1)}s`)
}

/**
 * A whole run installs the packed plugin in its demo and packaging tests: it is built and packed
 * now (demo/pack-ahead.ts), beside the template's migration, which leaves a core idle. A failure
 * here fails no test: the first test to need the tarball builds it and reports what went wrong.
 */
function packAhead() {
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules/ts-node/dist/bin.js"), "--transpile-only", "demo/pack-ahead.ts"],
    { cwd: root, env, stdio: "ignore" }
  )
  child.on("error", () => {})
  return child
}

/**
 * Three files at once on 2 cores: each file waits at times (a lender's timeout, another process's
 * boot, a browser's page), and a third keeps the cores busy then (docs/developing.md gives the
 * figures). TEST_WORKERS sets another number.
 */
function workerArgs() {
  const raw = process.env.TEST_WORKERS ?? "3"
  const workers = Number(raw)
  if (!Number.isInteger(workers) || workers < 1) {
    throw new Error(`TEST_WORKERS must be a whole number of at least 1, not ${JSON.stringify(raw)}`)
  }
  return workers === 1 ? ["--runInBand"] : [`--maxWorkers=${workers}`]
}

/**
 * Jest runs in a process group of its own, so that everything the tests start (Medusa servers,
 * the demo, simulators) can be ended with it, whatever a test forgot to stop.
 */
function runJest(jestCommand) {
  return new Promise((resolve) => {
    jest = spawn(process.execPath, jestCommand, { cwd: root, env, stdio: "inherit", detached: true })
    jest.on("error", (error) => {
      console.error(`could not start jest: ${error.message}`)
      resolve(1)
    })
    jest.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

async function finish(code, reason) {
  if (finishing) return
  finishing = true
  if (reason) console.error(`\nnpm test: ${reason}`)
  if (packer && packer.exitCode === null && packer.signalCode === null) packer.kill("SIGTERM")
  await endJest(reason ? 10_000 : 0)
  try {
    await postgres?.stop(reason ? 3000 : undefined)
  } catch (error) {
    console.error(`could not stop PostgreSQL: ${error.message}`)
  }
  const { line, failed, names } = summary(code)
  slowestFiles()
  fs.rmSync(resultsDir, { recursive: true, force: true })
  const seconds = Math.round((Date.now() - started) / 1000)
  console.log(`\nnpm test took ${Math.floor(seconds / 60)}m ${seconds % 60}s`)
  for (const name of names) console.log(`failed: ${name}`)
  console.log(line)
  process.exit(reason ? code : failed > 0 || code !== 0 ? code || 1 : 0)
}

/** Asks jest's group to stop (when interrupted), then kills whatever is left of it. */
async function endJest(graceMs) {
  const group = jest?.pid
  if (!group) return
  if (graceMs && jest.exitCode === null && jest.signalCode === null) {
    signalGroup(group, "SIGTERM")
    const end = Date.now() + graceMs
    while (jest.exitCode === null && jest.signalCode === null && Date.now() < end) await sleep(100)
  }
  const left = groupMembers(group).filter((pid) => pid !== group || jest.exitCode === null)
  if (left.length && !graceMs) {
    console.error(`npm test: the tests left processes running, killed now: ${left.map(describe).join("; ")}`)
  }
  signalGroup(group, "SIGKILL")
}

/** The closing count. A suite that failed outside its tests (could not run, a hook threw) counts as a failure. */
function summary(code) {
  let report
  try {
    report = JSON.parse(fs.readFileSync(resultsFile, "utf8"))
  } catch {
    return { line: "0 passed, 1 failed", failed: 1, names: ["jest wrote no results"] }
  }
  const suites = report.testResults ?? []
  const suiteFailures = suites.filter(
    (suite) => suite.status === "failed" && !suite.assertionResults?.some((test) => test.status === "failed")
  ).length
  let failed = report.numFailedTests + Math.max(suiteFailures, report.numRuntimeErrorTestSuites ?? 0)
  if (failed === 0 && code !== 0) {
    console.error(`npm test: jest exited with code ${code} with no failed test; counted as one failure`)
    failed = 1
  }
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
  // Named again beside the count, with the first lines of why, so that the end of a long log (all
  // a CI summary may keep) says which tests failed and how.
  const names = suites.flatMap((suite) => {
    const file = path.relative(root, suite.name)
    const tests = (suite.assertionResults ?? []).filter((test) => test.status === "failed")
    if (tests.length) return tests.map((test) => `${file} › ${test.fullName}${why(test.failureMessages)}`)
    return suite.status === "failed" ? [`${file} (outside its tests)${why([suite.message])}`] : []
  })
  return {
    line: `${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`,
    failed,
    names,
  }
}

/**
 * The files that took longest, so that the run's length can be traced to where it is spent; with
 * TEST_RECORD_DURATIONS=1, the integration files' times are kept for the sequencer.
 */
function slowestFiles() {
  let report
  try {
    report = JSON.parse(fs.readFileSync(resultsFile, "utf8"))
  } catch {
    return
  }
  const files = (report.testResults ?? [])
    .map((suite) => ({ file: path.relative(root, suite.name), seconds: (suite.endTime - suite.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
  console.log("\nslowest files:")
  for (const { file, seconds } of files.slice(0, SLOWEST)) console.log(`  ${seconds.toFixed(0).padStart(5)}s  ${file}`)
  if (process.env.TEST_RECORD_DURATIONS === "1") recordDurations(files)
}

/** Writes scripts/test-durations.json: each integration file's seconds in this run. */
function recordDurations(files) {
  const seconds = Object.fromEntries(
    files
      .filter(({ file }) => file.startsWith("integration-tests/"))
      .sort((a, b) => a.file.localeCompare(b.file))
      .map(({ file, seconds }) => [file, Math.round(seconds)])
  )
  const table = { measured: `npm test on ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}`, seconds }
  fs.writeFileSync(path.join(root, "scripts/test-durations.json"), `${JSON.stringify(table, null, 2)}\n`)
  console.log("(recorded in scripts/test-durations.json)")
}

/** The first lines of a failure, without colours or the stack, each as a `  why: ` line. */
function why(messages) {
  const lines = (messages ?? [])
    .join("\n")
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("at "))
    .slice(0, WHY_LINES)
  return lines.map((line) => `\n  why: ${line.slice(0, 300)}`).join("")
}

function groupMembers(group) {
  return processTable()
    .filter((entry) => entry.pgrp === group)
    .map((entry) => entry.pid)
}

function describe(pid) {
  try {
    return `${pid} ${fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim().slice(0, 120)}`
  } catch {
    return String(pid)
  }
}

function signalGroup(group, signal) {
  try {
    process.kill(-group, signal)
  } catch {}
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
