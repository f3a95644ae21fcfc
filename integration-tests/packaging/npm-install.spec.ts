import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { runCommand } from "../../demo/processes"
import { installedMedusaRelease, packPlugin, storePackageJson } from "../../demo/store"

jest.setTimeout(600_000)

/**
 * The plugin's tarball installs with a plain `npm install` (no --legacy-peer-deps, no --force) into
 * a new store outside this project, beside Medusa on the release this project has installed (so
 * `npm test` proves the newest release and `npm run test:medusa-releases` each other one), or on
 * PAYBRIGHT_STORE_MEDUSA when set. The same tarball with peerDependencies that leave that release
 * out is refused when that store installs it next: npm really holds the store to the plugin's peer
 * range here.
 */
const release = process.env.PAYBRIGHT_STORE_MEDUSA ?? installedMedusaRelease()

/**
 * What the store's installs leave out, none of which changes what npm resolves or installs: the
 * audit and funding reports, which ask the registry, and the registry's say on package data npm
 * has cached already (it still asks for what it lacks).
 */
const QUIET_INSTALL = ["--no-audit", "--no-fund", "--prefer-offline"]

describe(`the packed plugin in a new store on Medusa ${release}`, () => {
  let packDir: string
  let tarball: string
  const stores: string[] = []

  beforeAll(async () => {
    packDir = fs.mkdtempSync(path.join(os.tmpdir(), "paybright-pack-"))
    tarball = path.join(packDir, (await packPlugin(packDir)).tarball)
  })

  afterAll(() => {
    for (const dir of [packDir, ...stores]) if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  /** A folder of its own with the store's package.json and the tarball: nothing resolves from this project. */
  function newStore(plugin: string) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `paybright-store-${release}-`))
    stores.push(dir)
    fs.copyFileSync(plugin, path.join(dir, path.basename(plugin)))
    fs.writeFileSync(path.join(dir, "package.json"), storePackageJson(release, path.basename(plugin)))
    return dir
  }

  /** A new store with the plugin's tarball installed by `npm install`: one for the tests that read it. */
  let installed: Promise<string> | undefined
  function installedStore() {
    installed ??= (async () => {
      const store = newStore(tarball)
      await runCommand("npm", ["install", ...QUIET_INSTALL], {
        cwd: store,
        env: plainNpmEnv(),
        label: "npm install",
      })
      return store
    })()
    return installed
  }

  it("installs with npm install and loads on that release's framework", async () => {
    const store = await installedStore()

    const installed = (name: string, from = store) =>
      JSON.parse(fs.readFileSync(path.join(from, "node_modules", name, "package.json"), "utf8")).version as string
    expect(installed("@medusajs/medusa")).toBe(release)
    expect(installed("@medusajs/framework")).toBe(release)
    expect(installed("medusa-payment-paybright")).toBe(JSON.parse(fs.readFileSync("package.json", "utf8")).version)
    // One framework, the store's: the plugin brought no copy of its own.
    expect(fs.existsSync(path.join(store, "node_modules/medusa-payment-paybright/node_modules/@medusajs"))).toBe(false)

    // What Medusa loads from the plugin, loaded with the store's Medusa.
    const loaded = await runCommand(
      process.execPath,
      [
        "-e",
        'for (const entry of ["providers/paybright", "modules/paybright", "workflows"]) ' +
          'console.log(entry, typeof require("medusa-payment-paybright/" + entry))',
      ],
      { cwd: store, env: { ...plainNpmEnv(), NODE_OPTIONS: "" } }
    )
    expect(loaded.trim().split("\n")).toEqual([
      "providers/paybright object",
      "modules/paybright object",
      "workflows object",
    ])
  })

  it("shares the admin's libraries with Medusa's dashboard: one copy of each, as its widgets need", async () => {
    const store = await installedStore()
    const plugin = path.join(store, "node_modules/medusa-payment-paybright")
    const dashboard = path.join(store, "node_modules/@medusajs/dashboard")
    const { peerDependencies } = JSON.parse(fs.readFileSync(path.join(plugin, "package.json"), "utf8"))
    const { dependencies } = JSON.parse(fs.readFileSync(path.join(dashboard, "package.json"), "utf8"))
    // A library that holds a React context (the router, the query client, translations, the UI
    // kit) works in a widget only if the widget imports the dashboard's own copy of it.
    const shared = Object.keys(peerDependencies).filter((name) => name in dependencies)
    expect(shared).toEqual(expect.arrayContaining(["@tanstack/react-query", "react-router-dom", "react-i18next"]))
    // Node's lookup, folder by folder up from the importer (a package's `exports` may hide its
    // package.json from require.resolve).
    const copyOf = (name: string, from: string): string => {
      for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
        const candidate = path.join(dir, "node_modules", name)
        if (fs.existsSync(path.join(candidate, "package.json"))) return path.relative(store, candidate)
      }
      return `not found from ${path.relative(store, from)}`
    }
    expect(Object.fromEntries(shared.map((name) => [name, copyOf(name, plugin)]))).toEqual(
      Object.fromEntries(shared.map((name) => [name, copyOf(name, dashboard)]))
    )
  })

  it("is refused by the same npm install when its peer range leaves that release out", async () => {
    const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), "paybright-narrow-"))
    stores.push(unpacked)
    await runCommand("tar", ["-xzf", tarball, "-C", unpacked, "--strip-components=1"], { cwd: unpacked })
    const manifestFile = path.join(unpacked, "package.json")
    const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"))
    for (const name of ["@medusajs/framework", "@medusajs/medusa"]) manifest.peerDependencies[name] = `<${release}`
    fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2))
    const narrow = path.join(unpacked, (await runCommand("npm", ["pack", "--silent"], { cwd: unpacked })).trim())

    // The store that installed the plugin takes this tarball as its next release of it. npm refuses
    // while it resolves the tree, before it fetches anything: resolving is enough, and it resolves
    // against the store's lockfile instead of the whole registry tree again (3 s against 18 s).
    const store = await installedStore()
    const next = `next-${path.basename(narrow)}`
    fs.copyFileSync(narrow, path.join(store, next))
    await expect(
      runCommand("npm", ["install", `./${next}`, "--package-lock-only", ...QUIET_INSTALL], {
        cwd: store,
        env: plainNpmEnv(),
        label: "npm install",
      })
    ).rejects.toThrow(
      // npm's ERESOLVE report (its first line, the code, falls outside the error's tail).
      /Conflicting peer dependency: @medusajs\/(framework|medusa)@/
    )
  })
})

/** The environment without the npm settings `npm test` passes to its scripts, so npm reads only its defaults and config files. */
function plainNpmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)))
}
