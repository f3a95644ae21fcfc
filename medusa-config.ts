import path from "node:path"
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

/**
 * The app the integration tests boot: this repository's source as a store's own code, with the
 * PayBright provider registered the way a store registers the published package. Not shipped.
 */
const env = process.env
const backendUrl = env.PAYBRIGHT_BACKEND_URL ?? `http://localhost:${env.PORT ?? 9000}`

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: env.DATABASE_URL,
    // The tests run the plugin's jobs themselves, on the clock they set, so one scheduled in the
    // same minute cannot take a fault or an approval a test is about to look at: as Medusa's server,
    // the app loads no scheduled jobs (its local event bus still delivers events). The demo and the
    // scale suite run the jobs on their schedule.
    workerMode: (env.MEDUSA_WORKER_MODE as "shared" | "worker" | "server" | undefined) ?? "server",
    http: {
      storeCors: env.STORE_CORS ?? "*",
      adminCors: env.ADMIN_CORS ?? "*",
      authCors: env.AUTH_CORS ?? "*",
      jwtSecret: env.JWT_SECRET ?? "integration-tests-only",
      cookieSecret: env.COOKIE_SECRET ?? "integration-tests-only",
    },
  },
  modules: [
    { resolve: "./src/modules/paybright" },
    // Medusa's roles and permissions, for the test that checks the plugin's RBAC policies.
    ...(env.MEDUSA_FF_RBAC === "true" ? [{ resolve: "@medusajs/medusa/rbac" }] : []),
    // Locks that hold across server processes, as the README advises for production: the store's own
    // PostgreSQL, or Redis when the test runs one.
    { resolve: "@medusajs/medusa/locking", options: { providers: [lockingProvider()] } },
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [
          {
            resolve: "./src/providers/paybright",
            id: "paybright",
            options: paybrightOptions(
              env.PAYBRIGHT_CAPTURE_MODE ?? "in_store",
              cardProcessor(env.PAYBRIGHT_CARD_PROCESSOR)
            ),
          },
          // Registrations that capture at fulfillment or never by themselves, when a test asks for them.
          ...(env.PAYBRIGHT_CAPTURE_ON_PROVIDERS
            ? [
                {
                  resolve: "./src/providers/paybright",
                  id: "on-fulfillment",
                  options: { ...paybrightOptions("in_store"), captureOn: "fulfillment" },
                },
                {
                  resolve: "./src/providers/paybright",
                  id: "capture-manually",
                  options: { ...paybrightOptions("in_store"), captureOn: "manual" },
                },
              ]
            : []),
          // Another payment method whose authorization is deferred, when a test asks for it.
          ...(env.PAYBRIGHT_DEFERRED_PROVIDER
            ? [{ resolve: path.join(__dirname, "test-support/deferred-payment-provider"), id: "deferred" }]
            : []),
          // A second registration, settled by a person at a terminal, when a test asks for it.
          ...(env.PAYBRIGHT_MANUAL_PROVIDER
            ? [
                {
                  resolve: "./src/providers/paybright",
                  id: "manual-card",
                  options: paybrightOptions("virtual_card", { type: "manual" }),
                },
              ]
            : []),
        ],
      },
    },
  ],
})

function paybrightOptions(captureMode: string, processor?: Record<string, unknown>) {
  return {
    apiKey: env.PAYBRIGHT_API_KEY ?? "sim_test_account",
    apiToken: env.PAYBRIGHT_API_TOKEN ?? "sim_test_token_do_not_use_in_production",
    apiUrl: env.PAYBRIGHT_API_URL ?? "http://127.0.0.1:4010",
    checkoutUrl: env.PAYBRIGHT_CHECKOUT_URL ?? env.PAYBRIGHT_API_URL ?? "http://127.0.0.1:4010",
    backendUrl,
    storefrontUrl: env.PAYBRIGHT_STOREFRONT_URL ?? "http://localhost:8000",
    captureMode,
    captureOn: env.PAYBRIGHT_CAPTURE_ON ?? "shipment",
    shopName: "PayBright test store",
    timeoutMs: Number(env.PAYBRIGHT_TIMEOUT_MS ?? 5000),
    ...(processor ? { cardProcessor: processor } : {}),
  }
}

function lockingProvider() {
  if (!env.REDIS_URL) {
    return { resolve: "@medusajs/medusa/locking-postgres", id: "locking-postgres", is_default: true }
  }
  return {
    resolve: "@medusajs/medusa/locking-redis",
    id: "locking-redis",
    is_default: true,
    options: {
      redisUrl: env.REDIS_URL,
      // The test's Redis stops with the test: give up reconnecting rather than keep the process alive.
      redisOptions: { retryStrategy: (attempt: number) => (attempt > 3 ? null : 200) },
    },
  }
}

function cardProcessor(kind?: string) {
  if (kind === "manual") {
    return { type: "manual" }
  }
  if (kind === "stripe") {
    const stripe = new URL(env.PAYBRIGHT_STRIPE_URL ?? "http://127.0.0.1:12111")
    return {
      type: "stripe",
      options: {
        secretKey: env.PAYBRIGHT_STRIPE_KEY,
        host: stripe.hostname,
        port: Number(stripe.port),
        protocol: stripe.protocol.replace(":", ""),
        timeoutMs: Number(env.PAYBRIGHT_STRIPE_TIMEOUT_MS ?? 20000),
      },
    }
  }
  return undefined
}
