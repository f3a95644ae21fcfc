#!/usr/bin/env node
import { spawn } from "node:child_process"
import path from "node:path"
import { fileURLToPath } from "node:url"

/**
 * `npm run test:model -- --runs N [--mode in_store|virtual_card] [--seed S] [--path P --replay-path R]
 * [--sequence "…"] [--without Command,Command]`:
 * the money seam's model (integration-tests/model) for N random sequences (2 in `npm test`, 15 with PAYBRIGHT_EXPLORATION=full), on a
 * throwaway PostgreSQL as `npm test` runs it, against the in-store store (the default) or the
 * virtual-card store paid through the fake Stripe; `--seed`, `--path` and `--replay-path` (the
 * `replayPath` fast-check prints beside the counterexample) replay a sequence the model printed, and
 * `--sequence "Deliver(0, callback), Jobs()"` runs a printed sequence once as it reads, and
 * `--without EditQuantity,ChangeOrder` leaves commands out of the random days (to look past a finding).
 * Ends with `faults fired: <kind>=<n> …`, then `N passed, N failed` like every suite.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const args = process.argv.slice(2)
const option = (name) => {
  const at = args.indexOf(`--${name}`)
  return at >= 0 ? args[at + 1] : undefined
}
const env = { ...process.env }
if (option("runs")) env.PAYBRIGHT_MODEL_RUNS = option("runs")
if (option("seed")) env.PAYBRIGHT_MODEL_SEED = option("seed")
if (option("path")) env.PAYBRIGHT_MODEL_PATH = option("path")
if (option("mode")) {
  if (!["in_store", "virtual_card"].includes(option("mode"))) {
    console.error(`--mode must be in_store or virtual_card, not ${option("mode")}`)
    process.exit(2)
  }
  env.PAYBRIGHT_MODEL_MODE = option("mode")
}
if (option("sequence")) env.PAYBRIGHT_MODEL_SEQUENCE = option("sequence")
if (option("without")) env.PAYBRIGHT_MODEL_WITHOUT = option("without")
if (option("replay-path")) env.PAYBRIGHT_MODEL_REPLAY_PATH = option("replay-path")
const child = spawn(
  process.execPath,
  [path.join(root, "scripts/test.mjs"), "--integration", "integration-tests/model/money-seam.spec.ts"],
  { cwd: root, env, stdio: "inherit" }
)
child.on("exit", (code) => process.exit(code ?? 1))
