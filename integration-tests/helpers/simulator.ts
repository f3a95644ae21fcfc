import { startSimulator, type Simulator, type SimulatorOptions } from "../../src/lenders/paybright/simulator"

/**
 * Starts the lender simulator for a test file and points the app's provider at it. Call before
 * medusaIntegrationTestRunner, so it runs before the app boots; `env` adds settings for the app.
 */
export function useSimulator(
  options: SimulatorOptions,
  env: Record<string, string> = {}
): { readonly simulator: Simulator } {
  const holder = {} as { simulator: Simulator }
  beforeAll(async () => {
    holder.simulator = await startSimulator(options)
    Object.assign(process.env, {
      PAYBRIGHT_API_URL: holder.simulator.apiUrl,
      PAYBRIGHT_CHECKOUT_URL: holder.simulator.checkoutUrl,
      ...env,
    })
  })
  afterAll(async () => {
    await holder.simulator?.close()
  })
  return holder
}
