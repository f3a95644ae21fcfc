/** Every state change the plugin makes to money, as Medusa workflows. */
export { capturePaymentOnceWorkflow } from "./capture-payment-once"
export { resolveMoneyRecordWorkflow } from "./resolve-money-record"
export { reconcileMoneyRecordsWorkflow, STALE_PENDING_MS } from "./reconcile-money-records"
export { guardPaymentMovementWorkflow, releasePaymentMovementWorkflow } from "./guard-payment-movement"
export { recordUnstartedCaptureWorkflow } from "./record-unstarted-capture"
export { paymentLockKey } from "./payment-lock"
export type { CaptureResult, CaptureTrigger } from "./types"
