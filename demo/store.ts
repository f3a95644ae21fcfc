import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { randomBytes } from "node:crypto"
import { medusa, MedusaServer } from "./medusa-process"
import type { SeededStore } from "./seed-store"

const ROOT = path.resolve(__dirname, "..")

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
}

export type DemoStore = {
  dir: string
  url: string
  admin: { email: string; password: string }
  seeded: SeededStore
  server: MedusaServer
}

/**
 * A store as a merchant has one: a folder with its own medusa-config.ts and the plugin installed
 * from the packed package (not this source tree). The folder sits inside this project so Node
 * finds Medusa itself in the project's node_modules.
 */
export function createStoreFolder(): string {
  const dir = path.join(ROOT, ".demo", `store-${randomBytes(4).toString("hex")}`)
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true })
  return dir
}

/** `medusa plugin:build`, then `npm pack`, then unpack into the store's node_modules. */
export function installBuiltPlugin(storeDir: string) {
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/@medusajs/cli/cli.js"), "plugin:build"], { cwd: ROOT, stdio: "pipe" })
  const packDir = path.join(storeDir, ".pack")
  fs.mkdirSync(packDir)
  const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", packDir], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] })
    .toString()
    .trim()
    .split("\n")
    .pop()!
  const target = path.join(storeDir, "node_modules", "medusa-payment-paybright")
  fs.mkdirSync(target)
  execFileSync("tar", ["-xzf", path.join(packDir, tarball), "-C", target, "--strip-components=1"])
  const { version } = JSON.parse(fs.readFileSync(path.join(target, "package.json"), "utf8"))
  return { version, tarball }
}

export function writeStoreConfig(storeDir: string, settings: StoreSettings) {
  const provider = {
    apiKey: settings.apiKey,
    apiToken: settings.apiToken,
    apiUrl: settings.simulatorUrl,
    checkoutUrl: settings.simulatorUrl,
    backendUrl: `http://localhost:${settings.port}`,
    storefrontUrl: settings.storefrontUrl,
    storefrontPaths: { orderConfirmed: "/order/{order_id}/confirmed", checkout: "/checkout" },
    captureMode: settings.captureMode,
    ...(settings.cardProcessor ? { cardProcessor: settings.cardProcessor } : {}),
    shopName: "PayBright Demo Furniture",
    timeoutMs: 10000,
  }
  fs.writeFileSync(
    path.join(storeDir, "package.json"),
    JSON.stringify({ name: "paybright-demo-store", private: true, dependencies: { "@medusajs/medusa": "2.21.2", "@medusajs/framework": "2.21.2", "medusa-payment-paybright": "*" } }, null, 2)
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
      adminCors: ${JSON.stringify(`http://localhost:${settings.port}`)},
      authCors: ${JSON.stringify(`${settings.storefrontUrl},http://localhost:${settings.port}`)},
      jwtSecret: ${JSON.stringify(randomBytes(16).toString("hex"))},
      cookieSecret: ${JSON.stringify(randomBytes(16).toString("hex"))},
    },
  },
  admin: { disable: ${!settings.admin} },
  plugins: [{ resolve: "medusa-payment-paybright", options: {} }],
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [
          { resolve: "medusa-payment-paybright/providers/paybright", id: "paybright", options: ${JSON.stringify(provider, null, 2).replace(/\n/g, "\n          ")} },
        ],
      },
    },
  ],
})
`
  )
  fs.writeFileSync(path.join(storeDir, "seed.ts"), `export { default } from ${JSON.stringify(path.join(ROOT, "demo", "seed-exec"))}\n`)
}

export function storeEnv(settings: StoreSettings): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: settings.databaseUrl,
    PORT: String(settings.port),
    NODE_ENV: "development",
    MEDUSA_DISABLE_TELEMETRY: "true",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  }
}

export async function migrate(storeDir: string, env: NodeJS.ProcessEnv) {
  await medusa(storeDir, ["db:migrate"], env)
}

export async function seed(storeDir: string, env: NodeJS.ProcessEnv): Promise<SeededStore> {
  const out = path.join(storeDir, "seed.json")
  await medusa(storeDir, ["exec", "./seed.ts"], { ...env, PAYBRIGHT_DEMO_SEED_OUT: out })
  return JSON.parse(fs.readFileSync(out, "utf8"))
}

export async function createAdmin(storeDir: string, env: NodeJS.ProcessEnv) {
  const admin = { email: "admin@paybright.demo", password: "paybright-demo" }
  await medusa(storeDir, ["user", "-e", admin.email, "-p", admin.password], env)
  return admin
}
