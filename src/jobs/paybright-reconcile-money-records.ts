import type { MedusaContainer } from "@medusajs/framework/types"
import { stalePendingMs } from "../lib/reconciliation"
import { reconcileMoneyRecordsWorkflow } from "../workflows/reconcile-money-records"
import { RECONCILE_SCHEDULE } from "../lib/job-schedules"

/**
 * Every five minutes: captures and refunds left pending by a stopped process become in doubt, and
 * what the plugin's records and Medusa's books do not share is put in doubt or logged.
 */
export default async function paybrightReconcileMoneyRecords(container: MedusaContainer) {
  await reconcileMoneyRecordsWorkflow(container).run({ input: { stale_after_ms: stalePendingMs() } })
}

export const config = {
  name: "paybright-reconcile-money-records",
  schedule: RECONCILE_SCHEDULE,
}
