#!/usr/bin/env node
import { execFileSync } from "node:child_process"
import { publint } from "publint"
import { formatMessage } from "publint/utils"
import path from "node:path"
import { fileURLToPath } from "node:url"

/**
 * `npm run check:package` (CI runs it after a build): what `npm pack` would publish is the plugin
 * and its papers, nothing of the repository's own tooling; and publint finds nothing wrong with the
 * package's exports and files.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const [packed] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--silent"], { cwd: root }).toString())
const files = packed.files.map((file) => file.path)

const mustHave = [
  "package.json",
  "README.md",
  "LICENSE",
  "CHANGELOG.md",
  ".medusa/server/src/providers/paybright/index.js",
  ".medusa/server/src/modules/paybright/index.js",
  ".medusa/server/src/workflows/index.js",
  ".medusa/server/src/storefront/index.js",
  ".medusa/server/src/storefront/index.d.ts",
  ".medusa/server/src/storefront/react.js",
  ".medusa/server/src/lenders/paybright/simulator/index.js",
  ".medusa/server/src/admin/index.mjs",
  // The guides run it by this path with `medusa exec`.
  ".medusa/server/src/scripts/setup-canada.js",
]
const mustNot = [
  { what: "the bench", test: (file) => /(^|\/)bench\//.test(file) },
  { what: "the demo", test: (file) => /(^|\/)demo\//.test(file) },
  { what: "the test support", test: (file) => /(^|\/)test-support\//.test(file) },
  { what: "tests", test: (file) => /__tests__|integration-tests|\.spec\./.test(file) },
  { what: "TypeScript sources", test: (file) => file.endsWith(".ts") && !file.endsWith(".d.ts") },
  { what: "the repository's scripts and CI", test: (file) => /^(scripts|\.ci|docs)\//.test(file) },
]
const problems = [
  ...mustHave.filter((file) => !files.includes(file)).map((file) => `missing: ${file}`),
  ...mustNot.flatMap(({ what, test }) => files.filter(test).map((file) => `${what} must not ship: ${file}`)),
]
// Medusa loads a plugin's jobs, subscribers and module and provider services with require() and
// reads their `default`, as `medusa exec` does a script's: that CommonJS shape is how Medusa's own
// plugin starter builds them, so publint's warning about it is expected for those files and only
// for them.
const LOADED_BY_MEDUSA =
  /^\/\.medusa\/server\/src\/(jobs|subscribers|scripts)\/|\/(modules|providers)\/[^/]+\/service\.js$/
const { messages, pkg } = await publint({ pkgDir: root, strict: true })
for (const message of messages) {
  const expected =
    message.code === "CJS_WITH_ESMODULE_DEFAULT_EXPORT" && LOADED_BY_MEDUSA.test(message.args?.filePath ?? "")
  if (expected || message.type === "suggestion") continue
  problems.push(`publint: ${formatMessage(message, pkg)}`)
}
for (const problem of problems) console.error(problem)
if (problems.length) {
  console.error(`${problems.length} problem(s) with what npm pack would publish (${files.length} files)`)
  process.exit(1)
}
console.log(
  `package: ${files.length} files, ${(packed.size / 1024).toFixed(0)} kB packed (${(packed.unpackedSize / 1024).toFixed(0)} kB unpacked), the plugin only`
)
