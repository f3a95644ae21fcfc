#!/usr/bin/env node
import { execFileSync, spawnSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"

/**
 * `npm run test:oldest-medusa`: the plugin against the oldest Medusa release its peerDependencies
 * accept. Copies the project to a temporary directory, pins every `@medusajs/*` package that follows
 * Medusa's release number to that release, installs, then runs the type check, the unit tests and
 * the checkout and sales-tax suites. The rest of the project (and `npm test`) runs on the newest
 * release, which package-lock.json holds. Ends with `N passed, N failed` like `npm test`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const SUITES = ["integration-tests/http/checkout.spec.ts", "integration-tests/http/sales-tax.spec.ts"]

const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"))
const newest = pkg.devDependencies["@medusajs/medusa"]
const oldest = oldestRelease(pkg.peerDependencies["@medusajs/medusa"])
console.log(`Medusa: peerDependencies accept ${pkg.peerDependencies["@medusajs/medusa"]}; testing ${oldest}`)

const work = fs.mkdtempSync(path.join(os.tmpdir(), `paybright-medusa-${oldest}-`))
let code = 1
try {
  copyProject(work)
  const moved = pinMedusa(path.join(work, "package.json"), newest, oldest)
  forgetLockedMedusa(path.join(work, "package-lock.json"), moved)
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], work)
  const installed = JSON.parse(fs.readFileSync(path.join(work, "node_modules/@medusajs/medusa/package.json"), "utf8"))
  if (installed.version !== oldest) throw new Error(`installed @medusajs/medusa ${installed.version}, not ${oldest}`)

  const typecheck = spawnSync("npm", ["run", "typecheck"], { cwd: work, stdio: "inherit" }).status === 0
  const tests = spawnSync(process.execPath, ["scripts/test.mjs", "/src/", "/test-support/", ...SUITES], {
    cwd: work,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  })
  process.stdout.write(tests.stdout)
  const [passed, failed] = closingCount(tests.stdout)
  console.log(`\nMedusa ${oldest}: type check ${typecheck ? "passed" : "failed"}`)
  console.log(`${passed + (typecheck ? 1 : 0)} passed, ${failed + (typecheck ? 0 : 1)} failed`)
  code = typecheck && failed === 0 && tests.status === 0 ? 0 : 1
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  console.log("0 passed, 1 failed")
} finally {
  fs.rmSync(work, { recursive: true, force: true })
}
process.exit(code)

/** The lowest published release (no pre-release) in the range `~X.Y.Z`/`X.Y.x` the peers name. */
function oldestRelease(range) {
  const minor = /(\d+)\.(\d+)/.exec(range)
  if (!minor) throw new Error(`cannot read a Medusa minor release from "${range}"`)
  const versions = JSON.parse(
    execFileSync("npm", ["view", "@medusajs/medusa", "versions", "--json"], { encoding: "utf8" })
  )
  const patches = versions
    .filter((version) => new RegExp(`^${minor[1]}\\.${minor[2]}\\.\\d+$`).test(version))
    .map((version) => Number(version.split(".")[2]))
    .sort((a, b) => a - b)
  if (!patches.length) throw new Error(`no published Medusa ${minor[1]}.${minor[2]} release`)
  return `${minor[1]}.${minor[2]}.${patches[0]}`
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
 * Medusa publishes its packages in lockstep, except the UI kit: every dev dependency on the newest
 * release moves to the oldest, and the UI kit to the version that release's packages ask for.
 * Returns the names that moved.
 */
function pinMedusa(file, newest, oldest) {
  const manifest = JSON.parse(fs.readFileSync(file, "utf8"))
  const peers = JSON.parse(
    execFileSync("npm", ["view", `@medusajs/draft-order@${oldest}`, "peerDependencies", "--json"], { encoding: "utf8" })
  )
  const moved = []
  for (const name of Object.keys(manifest.devDependencies)) {
    if (!name.startsWith("@medusajs/")) continue
    const version = manifest.devDependencies[name] === newest ? oldest : peers[name]
    if (version && version !== manifest.devDependencies[name]) {
      manifest.devDependencies[name] = version
      moved.push(name)
    }
  }
  fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
  return moved
}

/** The lock holds the newest release throughout: its Medusa entries go, so npm resolves them afresh. */
function forgetLockedMedusa(file, moved) {
  const lock = JSON.parse(fs.readFileSync(file, "utf8"))
  for (const location of Object.keys(lock.packages)) {
    const name = location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length)
    if (
      location.includes("node_modules/@medusajs/") &&
      (moved.includes(name) || lock.packages[location].version === newest)
    ) {
      delete lock.packages[location]
    }
  }
  fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: "inherit" })
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status})`)
}

function closingCount(output) {
  const line = output
    .split("\n")
    .filter((text) => /^\d+ passed, \d+ failed/.test(text))
    .pop()
  if (!line) return [0, 1]
  const [, passed, failed] = /^(\d+) passed, (\d+) failed/.exec(line)
  return [Number(passed), Number(failed)]
}
