#!/usr/bin/env node
import { spawn } from "node:child_process"
import path from "node:path"
import { fileURLToPath } from "node:url"

/**
 * `npm run test:explorations`: the random explorations `npm test` runs on a small budget, run on
 * their whole one (PAYBRIGHT_EXPLORATION=full, test-support/exploration.ts), as CI does. The
 * money seam's model is not among them: CI runs it on its own for 100 sequences
 * (`npm run test:model -- --runs 100`). Ends with `N passed, N failed` like every suite.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const EXPLORATIONS = [
  { file: "integration-tests/http/default-store-checkout.spec.ts", test: "accepts none of a genuine result's mutants" },
]
const files = EXPLORATIONS.map(({ file }) => file)
const names = EXPLORATIONS.map(({ test }) => test.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")
const child = spawn(process.execPath, [path.join(root, "scripts/test.mjs"), "--integration", ...files, "-t", names], {
  cwd: root,
  env: { ...process.env, PAYBRIGHT_EXPLORATION: "full" },
  stdio: "inherit",
})
child.on("exit", (code) => process.exit(code ?? 1))
