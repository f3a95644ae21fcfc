import { startSimulator, type Simulator, type SimulatorOptions } from "../../src/lenders/paybright/simulator"

/** Settings for the app, or what gives them once the simulator runs (a service that reports to it, say). */
export type AppEnv = Record<string, string> | ((simulator: Simulator) => Promise<Record<string, string>>)

/**
 * Starts the lender simulator for a test file and points the app's provider at it. Call before
 * medusaIntegrationTestRunner, so it runs before the app boots; `env` adds settings for the app.
 */
export function useSimulator(options: SimulatorOptions, env: AppEnv = {}): { readonly simulator: Simulator } {
  const holder = {} as { simulator: Simulator }
  beforeAll(async () => {
    holder.simulator = await startSimulator(options)
    Object.assign(process.env, {
      PAYBRIGHT_API_URL: holder.simulator.apiUrl,
      PAYBRIGHT_CHECKOUT_URL: holder.simulator.checkoutUrl,
      ...(typeof env === "function" ? await env(holder.simulator) : env),
    })
  })
  afterAll(async () => {
    await holder.simulator?.close()
  })
  return holder
}
