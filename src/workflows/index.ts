/** Every state change the plugin makes, as Medusa workflows: money, approvals, settings and the event log. */
export { capturePaymentOnceWorkflow } from "./capture/workflows/capture-payment-once"
export { resolveMoneyRecordWorkflow } from "./money-records/workflows/resolve-money-record"
export {
  reconcileMoneyRecordsWorkflow,
  STALE_PENDING_MS,
  stalePendingMs,
} from "./money-records/workflows/reconcile-money-records"
export { guardPaymentMovementWorkflow } from "./payment-guard/workflows/guard-payment-movement"
export { finishPaymentMovementWorkflow } from "./payment-guard/workflows/finish-payment-movement"
export { releaseOrphanedApprovalWorkflow } from "./release/workflows/release-orphaned-approval"
export { retryReleaseWorkflow } from "./release/workflows/retry-release"
export { recordUnstartedCaptureWorkflow } from "./capture/workflows/record-unstarted-capture"
export * from "./approvals"
export * from "./settings/workflows/save-paybright-settings"
export * from "./events/workflows/record-paybright-event"
