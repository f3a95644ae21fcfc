#!/usr/bin/env node
import { spawn } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { startPostgres } from "./embedded-postgres.mjs"

/**
 * `npm test`: every test, with nothing to install or start by hand. Uses the PostgreSQL named by
 * DB_HOST/DATABASE_URL, or starts a throwaway one, runs jest, and ends with `N passed, N failed`.
 */
const args = process.argv.slice(2)
const integrationOnly = args[0] === "--integration"
const jestArgs = integrationOnly ? ["--selectProjects", "integration", ...args.slice(1)] : args

const env = { LOG_LEVEL: "error", ...process.env, NODE_ENV: "test", TZ: "UTC", MEDUSA_DISABLE_TELEMETRY: "true" }
env.NODE_OPTIONS = [process.env.NODE_OPTIONS, "--experimental-vm-modules"].filter(Boolean).join(" ")

let postgres
const stopPostgres = async () => {
  const running = postgres
  postgres = undefined
  await running?.stop()
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    await stopPostgres()
    process.exit(130)
  })
}

const results = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "paybright-jest-")), "results.json")
let exitCode = 1
try {
  if (!env.DB_HOST && !env.DATABASE_URL) {
    process.stdout.write("Starting PostgreSQL (embedded-postgres)... ")
    postgres = await startPostgres()
    console.log(`ready on port ${postgres.port}`)
    Object.assign(env, { DB_HOST: postgres.host, DB_PORT: String(postgres.port), DB_USERNAME: postgres.user, DB_PASSWORD: postgres.password })
  } else if (env.DATABASE_URL && !env.DB_HOST) {
    const url = new URL(env.DATABASE_URL)
    Object.assign(env, { DB_HOST: url.hostname, DB_PORT: url.port || "5432", DB_USERNAME: decodeURIComponent(url.username), DB_PASSWORD: decodeURIComponent(url.password) })
  }
  env.DB_USERNAME ||= "postgres"

  exitCode = await run(process.execPath, ["node_modules/jest/bin/jest.js", "--runInBand", "--json", `--outputFile=${results}`, ...jestArgs], env)
} finally {
  await stopPostgres()
}

console.log(summary(results, exitCode))
process.exit(exitCode)

function run(command, commandArgs, childEnv) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { env: childEnv, stdio: "inherit" })
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

/** The closing count; a suite that could not run counts as a failure, so a crash is never green. */
function summary(file, code) {
  try {
    const report = JSON.parse(fs.readFileSync(file, "utf8"))
    const failed = report.numFailedTests + report.numRuntimeErrorTestSuites
    const skipped = report.numPendingTests + report.numTodoTests
    return `${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`
  } catch {
    return `0 passed, ${code === 0 ? 0 : 1} failed`
  }
}
