import type { MedusaContainer } from "@medusajs/framework/types"
import {
  reconcileMoneyRecordsWorkflow,
  stalePendingMs,
} from "../workflows/money-records/workflows/reconcile-money-records"
import { captureMissedParcels } from "../workflows/capture/missed-parcels"

/** Cron schedule of the reconciliation (default every five minutes). */
const SCHEDULE_ENV = "PAYBRIGHT_RECONCILE_SCHEDULE"

/**
 * Every five minutes: captures and refunds left pending by a stopped process become in doubt, and
 * parcels whose shipment event no subscriber handled are captured.
 */
export default async function paybrightReconcile(container: MedusaContainer) {
  await reconcileMoneyRecordsWorkflow(container).run({ input: { stale_after_ms: stalePendingMs() } })
  await captureMissedParcels(container)
}

export const config = {
  name: "paybright-reconcile-money-records",
  // Read when the store loads its jobs: a store can run it more often than the default.
  schedule: process.env[SCHEDULE_ENV] || "*/5 * * * *",
}
