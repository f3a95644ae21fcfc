import { medusaIntegrationTestRunner, type MedusaSuiteOptions } from "@medusajs/test-utils"
import type { SimulatorOptions, SimulatorSettingsUpdate } from "../../src/lenders/paybright/simulator"
import { useAppPort } from "./app-port"
import { useSimulator, type AppEnv } from "./simulator"

export type Lender = ReturnType<typeof useSimulator>

/** Where the app answers: the lender's callback and return URLs name it. */
export type App = ReturnType<typeof useAppPort>

/**
 * A suite of tests that needs a Medusa app of its own only in that it seeds a store of its own.
 * `lender` changes the simulator's settings for this suite, over those the app started with.
 */
export type AppSuite = {
  title: string
  lender?: SimulatorSettingsUpdate
  tests: (options: MedusaSuiteOptions, lender: Lender, app: App) => void
}

/**
 * Several suites on one boot of Medusa, each as if it had the app alone: a suite starts from the
 * database as migrated (a template taken before any suite seeds), runs its own `beforeAll` (its
 * store), and that state becomes the template each of its tests starts from, as Medusa's runner
 * does for a file. Booting Medusa in jest costs about 12 s of CPU a file, so suites that can share
 * an app's configuration share one boot. What is left of a suite in the app's
 * memory (its caches, the simulator's contracts) stays, as between the tests of one file; the
 * simulator's settings go back to `simulatorOptions`, then take the suite's own. `appEnv` adds
 * settings for the app.
 */
export function onOneApp(simulatorOptions: SimulatorOptions, suites: AppSuite[], appEnv: AppEnv = {}) {
  const app = useAppPort()
  const lender = useSimulator(simulatorOptions, appEnv)
  medusaIntegrationTestRunner({
    env: { MEDUSA_DISABLE_TELEMETRY: "true" },
    testSuite: (options) => {
      const migrated = `${options.dbConfig.dbName}_migrated`
      const dbUtils = options.dbUtils as MedusaSuiteOptions["dbUtils"] & {
        dropTemplate(templateName: string): Promise<void>
      }
      let initialSettings: typeof lender.simulator.settings
      beforeAll(async () => {
        initialSettings = lender.simulator.settings
        await dbUtils.snapshot({ templateName: migrated })
      })
      afterAll(() => dbUtils.dropTemplate(migrated))
      for (const { title, lender: settings, tests } of suites) {
        describe(title, () => {
          beforeAll(async () => {
            await dbUtils.restore({ templateName: migrated })
            lender.simulator.settings = initialSettings
            if (settings) lender.simulator.settings = settings
          })
          tests(options, lender, app)
          // After the suite's own beforeAll: its store is what each of its tests starts from.
          beforeAll(() => dbUtils.snapshot())
        })
      }
    },
  })
}
