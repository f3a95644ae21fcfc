import fs from "node:fs"
import path from "node:path"
import { createHash, randomBytes } from "node:crypto"
import { medusa } from "./medusa-process"
import { runCommand } from "./processes"
import { alive, readOrEmpty, withLock } from "../test-support/file-lock"
import type { SeededStore, SeedOptions } from "../test-support/seed-store"

const ROOT = path.resolve(__dirname, "..")
const STORES = path.join(ROOT, ".demo")
/**
 * A folder where the packed plugin is kept for the rest of a test run (scripts/test.mjs sets it):
 * the suite installs the plugin into several stores, and the same sources pack into the same
 * tarball. Unset (a person's `npm run demo`), every run builds and packs.
 */
const PACK_CACHE = process.env.PAYBRIGHT_PACK_CACHE
/** What `medusa plugin:build` and `npm pack` read from this project: the key of a kept tarball. */
const PACK_INPUTS = ["src", "package.json", "tsconfig.json", "medusa-config.ts", "README.md", "CHANGELOG.md", "LICENSE"]

export type StoreSettings = {
  databaseUrl: string
  port: number
  simulatorUrl: string
  apiKey: string
  apiToken: string
  storefrontUrl: string
  captureMode: "in_store" | "virtual_card"
  cardProcessor?: Record<string, unknown>
  admin: boolean
  /**
   * Production topology: Medusa's Redis event bus, workflow engine and locking, with the process's
   * role (server or worker) read from MEDUSA_WORKER_MODE. Without it, one process with Medusa's defaults.
   */
  redis?: boolean
  /** More payment providers registered beside PayBright (another registration of it, or another provider). */
  extraProviders?: { resolve: string; id: string; options: Record<string, unknown> }[]
  /** More PayBright options, as a merchant adds them to medusa-config.ts (the financing estimate's terms). */
  paybrightOptions?: Record<string, unknown>
  /** Options of Medusa's payment module itself (e.g. webhook_delay). */
  paymentModuleOptions?: Record<string, unknown>
}

/** The PayBright provider's options as the README tells a merchant to write them; `overrides` on top. */
export function paybrightProviderOptions(settings: StoreSettings, overrides: Record<string, unknown> = {}) {
  return {
    apiKey: settings.apiKey,
    apiToken: settings.apiToken,
    apiUrl: settings.simulatorUrl,
    checkoutUrl: settings.simulatorUrl,
    backendUrl: `http://localhost:${settings.port}`,
    storefrontUrl: settings.storefrontUrl,
    captureMode: settings.captureMode,
    ...(settings.cardProcessor ? { cardProcessor: settings.cardProcessor } : {}),
    shopName: "PayBright Demo Furniture",
    timeoutMs: 10000,
    ...settings.paybrightOptions,
    ...overrides,
  }
}

/**
 * A store as a merchant has one: a folder with its own package.json and medusa-config.ts, and the
 * plugin unpacked from its npm tarball into the folder's node_modules (not this source tree).
 *
 * The folder sits inside this project (.demo/store-<random>): Node resolves everything else
 * (@medusajs/*, and the plugin's own dependencies) by walking up to the project's node_modules,
 * so there is exactly one copy of @medusajs/framework, as in a real install, and nothing to
 * download. A temp folder outside the project would need symlinks for each of those packages.
 */
export function createStoreFolder(): string {
  removeAbandonedStores()
  const dir = path.join(STORES, `store-${randomBytes(4).toString("hex")}`)
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true })
  // Lets a later run tell a store of a demo still running from one left by a demo that was killed.
  fs.writeFileSync(path.join(dir, "demo.pid"), String(process.pid))
  return dir
}

/**
 * A demo killed with SIGKILL (or a crash of the machine) cannot remove its store folder: the next
 * run does, when the demo that wrote it is gone. Folders of demos still running are left alone.
 */
function removeAbandonedStores() {
  if (!fs.existsSync(STORES)) return
  for (const name of fs.readdirSync(STORES)) {
    const dir = path.join(STORES, name)
    if (!name.startsWith("store-")) continue
    const pid = Number(readOrEmpty(path.join(dir, "demo.pid")))
    const abandoned = pid ? !alive(pid) : Date.now() - fs.statSync(dir).mtimeMs > 60 * 60 * 1000
    if (abandoned) fs.rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * `medusa plugin:build`, then `npm pack`, then unpack the tarball into the store's node_modules.
 * In a test run, a tarball packed earlier from the same sources is installed instead of packing
 * again (`reused`).
 */
export async function installBuiltPlugin(storeDir: string) {
  const packDir = path.join(storeDir, ".pack")
  const { tarball, reused } = await packPlugin(packDir)
  const target = path.join(storeDir, "node_modules", "medusa-payment-paybright")
  fs.mkdirSync(target)
  await runCommand("tar", ["-xzf", path.join(packDir, tarball), "-C", target, "--strip-components=1"], {
    cwd: storeDir,
  })
  const { version } = JSON.parse(fs.readFileSync(path.join(target, "package.json"), "utf8")) as { version: string }
  const files = countFiles(target)
  return { version, tarball, files, reused }
}

/**
 * `medusa plugin:build`, then `npm pack` into `packDir` (made here); in a test run, a tarball
 * packed earlier from the same sources is copied instead (`reused`). Returns the tarball's name.
 */
export async function packPlugin(packDir: string) {
  fs.mkdirSync(packDir, { recursive: true })
  // plugin:build empties .medusa/server before writing it: two demos at once (the test suite runs
  // some) must not pack each other's half-built folder. A second one waits, then finds the first's
  // tarball kept.
  const { packed, reused } = await withLock(path.join(STORES, "plugin-build.lock"), "building the plugin", async () => {
    const kept = PACK_CACHE ? path.join(PACK_CACHE, sourceKey()) : undefined
    const keptTarball = kept && fs.existsSync(kept) && fs.readdirSync(kept).find((name) => name.endsWith(".tgz"))
    if (kept && keptTarball) {
      fs.copyFileSync(path.join(kept, keptTarball), path.join(packDir, keptTarball))
      return { packed: "", reused: true }
    }
    await runCommand(process.execPath, [path.join(ROOT, "node_modules/@medusajs/cli/cli.js"), "plugin:build"], {
      cwd: ROOT,
      label: "medusa plugin:build",
    })
    const packed = await runCommand("npm", ["pack", "--silent", "--pack-destination", packDir], {
      cwd: ROOT,
      label: "npm pack",
    })
    const made = fs.readdirSync(packDir).find((name) => name.endsWith(".tgz"))
    if (kept && made) {
      // Written under another name, then renamed: a tarball found there is always whole.
      fs.mkdirSync(kept, { recursive: true })
      const partial = path.join(kept, `${made}.${process.pid}.partial`)
      fs.copyFileSync(path.join(packDir, made), partial)
      fs.renameSync(partial, path.join(kept, made))
    }
    return { packed, reused: false }
  })
  const tarball = fs.readdirSync(packDir).find((name) => name.endsWith(".tgz"))
  if (!tarball) throw new Error(`npm pack wrote no tarball:\n${packed}`)
  return { tarball, reused }
}

/** A digest of every file the build and the package are made from, with its path. */
function sourceKey(): string {
  const hash = createHash("sha256")
  const add = (relative: string) => {
    const file = path.join(ROOT, relative)
    if (!fs.existsSync(file)) return
    if (fs.statSync(file).isDirectory()) {
      for (const name of fs.readdirSync(file).sort()) add(path.join(relative, name))
      return
    }
    hash.update(`${relative}\0`).update(fs.readFileSync(file)).update("\0")
  }
  PACK_INPUTS.forEach(add)
  return hash.digest("hex").slice(0, 16)
}

/** The Medusa release installed in this project: the one the demo's stores run on. */
export function installedMedusaRelease(): string {
  const manifest = path.join(ROOT, "node_modules", "@medusajs", "medusa", "package.json")
  return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version
}

/**
 * A store's package.json as a merchant's reads after installing the plugin: Medusa's packages on
 * `release`, and the plugin from its tarball (a path relative to the store).
 */
export function storePackageJson(release: string, tarball: string): string {
  const manifest = {
    name: "paybright-demo-store",
    private: true,
    dependencies: {
      "@medusajs/medusa": release,
      "@medusajs/framework": release,
      "medusa-payment-paybright": `file:${tarball}`,
    },
  }
  return `${JSON.stringify(manifest, null, 2)}\n`
}

/** The store's package.json and medusa-config.ts, configured as the README tells a merchant to. */
export function writeStoreConfig(storeDir: string, settings: StoreSettings) {
  const providers = [
    {
      resolve: "medusa-payment-paybright/providers/paybright",
      id: "paybright",
      options: paybrightProviderOptions(settings),
    },
    ...(settings.extraProviders ?? []),
  ]
  const storeUrl = `http://localhost:${settings.port}`
  fs.writeFileSync(
    path.join(storeDir, "package.json"),
    storePackageJson(installedMedusaRelease(), `.pack/${fs.readdirSync(path.join(storeDir, ".pack"))[0]}`)
  )
  fs.writeFileSync(
    path.join(storeDir, "medusa-config.ts"),
    `import { defineConfig } from "@medusajs/framework/utils"

// Written by the demo: a store that installed medusa-payment-paybright as the README says.
module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      // Medusa answers CORS with credentials, which needs the origins spelled out, not "*".
      storeCors: ${JSON.stringify(settings.storefrontUrl)},
      adminCors: ${JSON.stringify(storeUrl)},
      authCors: ${JSON.stringify(`${settings.storefrontUrl},${storeUrl}`)},
      jwtSecret: process.env.JWT_SECRET,
      cookieSecret: process.env.COOKIE_SECRET,
    },
${settings.redis ? PRODUCTION_PROJECT_CONFIG : ""}  },
  // The admin is served (in development mode, no build needed) only with --serve${settings.redis ? "; never by a worker" : ""}.
  admin: { disable: ${settings.redis ? `${!settings.admin} || process.env.MEDUSA_WORKER_MODE === "worker"` : !settings.admin} },
  plugins: [{ resolve: "medusa-payment-paybright", options: {} }],
  modules: [
${settings.redis ? PRODUCTION_MODULES : ""}    {
      resolve: "@medusajs/medusa/payment",
      options: ${indent(JSON.stringify({ ...settings.paymentModuleOptions, providers }, null, 2), 6)},
    },
  ],
})
`
  )
  // `medusa exec` runs a file of the store; the seed itself lives with the demo (and the tests).
  fs.writeFileSync(
    path.join(storeDir, "seed.ts"),
    `export { default } from ${JSON.stringify(path.join(ROOT, "demo", "seed-exec"))}\n`
  )
}

// Inside projectConfig, after http: the role of this process and the Redis every process shares.
const PRODUCTION_PROJECT_CONFIG = `    // "server" answers HTTP; "worker" runs subscribers and scheduled jobs; "shared" does both.
    workerMode: process.env.MEDUSA_WORKER_MODE as "shared" | "worker" | "server",
    redisUrl: process.env.REDIS_URL,
`

// Events, long-running workflows and locks shared by every server and worker process.
const PRODUCTION_MODULES = `    { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl: process.env.REDIS_URL } },
    { resolve: "@medusajs/medusa/workflow-engine-redis", options: { redis: { redisUrl: process.env.REDIS_URL } } },
    {
      resolve: "@medusajs/medusa/locking",
      options: {
        providers: [
          {
            resolve: "@medusajs/medusa/locking-redis",
            id: "locking-redis",
            is_default: true,
            options: { redisUrl: process.env.REDIS_URL },
          },
        ],
      },
    },
`

function indent(text: string, spaces: number) {
  return text.replace(/\n/g, `\n${" ".repeat(spaces)}`)
}

/** The environment every Medusa command of the store runs with. */
export function storeEnv(storeDir: string, settings: StoreSettings): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // Medusa 2.18 requires a plugin's modules by name from the folder @medusajs/utils is installed
    // in (this project's node_modules), where 2.19 and later resolve them from the store: the
    // store's own node_modules on NODE_PATH lets 2.18 find the plugin unpacked there too.
    NODE_PATH: [path.join(storeDir, "node_modules"), process.env.NODE_PATH].filter(Boolean).join(path.delimiter),
    DATABASE_URL: settings.databaseUrl,
    PORT: String(settings.port),
    NODE_ENV: "development",
    JWT_SECRET: randomBytes(24).toString("hex"),
    COOKIE_SECRET: randomBytes(24).toString("hex"),
    // Encrypts the secrets saved on Settings → PayBright; without it the page says they cannot be saved.
    PAYBRIGHT_SETTINGS_KEY: randomBytes(32).toString("base64"),
    MEDUSA_DISABLE_TELEMETRY: "true",
    // The store's log goes to medusa.log; warnings and errors are what a failed step shows.
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  }
}

export async function migrate(storeDir: string, env: NodeJS.ProcessEnv) {
  await medusa(storeDir, ["db:migrate"], env)
}

export const ADMIN_LOGIN = { email: "admin@paybright.demo", password: "paybright-demo" }

/**
 * Seeds the demo's Canadian store and its admin user (ADMIN_LOGIN); `options` change what
 * seed-exec.ts seeds (providers, stock).
 */
export async function seed(
  storeDir: string,
  env: NodeJS.ProcessEnv,
  options: SeedOptions = {}
): Promise<{ seeded: SeededStore; admin: typeof ADMIN_LOGIN }> {
  const out = path.join(storeDir, "seed.json")
  await medusa(storeDir, ["exec", "./seed.ts"], {
    ...env,
    PAYBRIGHT_DEMO_SEED_OUT: out,
    PAYBRIGHT_DEMO_SEED_OPTIONS: JSON.stringify(options),
    PAYBRIGHT_DEMO_ADMIN: JSON.stringify(ADMIN_LOGIN),
  })
  return { seeded: JSON.parse(fs.readFileSync(out, "utf8")) as SeededStore, admin: { ...ADMIN_LOGIN } }
}

function countFiles(dir: string): number {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .reduce((count, entry) => count + (entry.isDirectory() ? countFiles(path.join(dir, entry.name)) : 1), 0)
}
