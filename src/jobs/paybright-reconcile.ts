import type { MedusaContainer } from "@medusajs/framework/types"
import {
  reconcileMoneyRecordsWorkflow,
  STALE_PENDING_MS,
} from "../workflows/money-records/workflows/reconcile-money-records"

/** Every five minutes: captures and refunds left pending by a stopped process become in doubt. */
export default async function paybrightReconcile(container: MedusaContainer) {
  await reconcileMoneyRecordsWorkflow(container).run({ input: { stale_after_ms: STALE_PENDING_MS } })
}

export const config = {
  name: "paybright-reconcile-money-records",
  schedule: "*/5 * * * *",
}
