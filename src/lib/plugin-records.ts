import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { applicationContainer } from "./medusa-internals"
import { PAYBRIGHT_MODULE } from "../modules/paybright"
import type { PayBrightRecordsReader, PayBrightRecordsWriter } from "../modules/paybright/records"

/**
 * The plugin's own module (its records, as against Medusa's payment internals), from a workflow's
 * or a request's container, or by default from the application's: Medusa builds each module's
 * container apart, so the provider (inside the payment module) reaches the plugin's module through
 * the application's container, the only one holding both. Its reads only: a state move goes
 * through recordsWriter.
 */
export function pluginRecords(container: MedusaContainer = applicationContainer()): PayBrightRecordsReader {
  return recordsModule(container)
}

/**
 * The plugin's records with their named state moves, for the writers: workflow steps, and the code
 * that runs inside Medusa's own calls (the provider's movements, the void's attempt). Never the
 * generated create, update and delete: those stay inside the module.
 */
export function recordsWriter(container: MedusaContainer = applicationContainer()): PayBrightRecordsWriter {
  return recordsModule(container)
}

function recordsModule(container: MedusaContainer): PayBrightRecordsWriter {
  if (!container.hasRegistration(PAYBRIGHT_MODULE)) {
    throw new Error(
      'PayBright needs its records module: add the plugin to `plugins` in medusa-config (or "medusa-payment-paybright/modules/paybright" to `modules`)'
    )
  }
  return container.resolve<PayBrightRecordsWriter>(PAYBRIGHT_MODULE)
}

/** The application's query, to name the order of a payment in records and logs. */
export function appQuery() {
  return applicationContainer().resolve(ContainerRegistrationKeys.QUERY)
}

export function appLogger(): Logger {
  return applicationContainer().resolve<Logger>(ContainerRegistrationKeys.LOGGER)
}

/** The application's container, for the provider's questions about the rest of the store (a cart's lock). */
export function appScope(): MedusaContainer {
  return applicationContainer()
}
