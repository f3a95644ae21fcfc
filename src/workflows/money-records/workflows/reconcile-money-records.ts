import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { reconcileRecordsStep, type ReconcileInput } from "../steps/reconcile-records"
import { lockTtlSeconds, secondsFromEnv } from "../../../locks/lock-lease"

/** How long a capture or refund may stay pending, by default, before it is taken to be in doubt. */
export const STALE_PENDING_MS = 5 * 60 * 1000
/** Seconds a record may stay pending before reconciliation takes it to be in doubt (default 300). */
export const STALE_PENDING_ENV = "PAYBRIGHT_PENDING_IN_DOUBT_AFTER_SECONDS"

/**
 * How long the scheduled reconciliation leaves a pending record alone: PAYBRIGHT_PENDING_IN_DOUBT_AFTER_SECONDS,
 * else five minutes, and never less than the payment lock's lease, because a record younger than
 * the lease may belong to a movement still running under it.
 */
export function stalePendingMs(): number {
  const configured = secondsFromEnv(STALE_PENDING_ENV)
  const wanted = configured ? configured * 1000 : STALE_PENDING_MS
  return Math.max(wanted, lockTtlSeconds() * 1000)
}

/** The reconciliation the scheduled job runs: stale pending records to in doubt, unexplained Medusa rows listed. */
export const reconcileMoneyRecordsWorkflow = createWorkflow(
  "paybright-reconcile-money-records-workflow",
  (input: ReconcileInput) => {
    return new WorkflowResponse(reconcileRecordsStep(input))
  }
)
