import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { lockOfRecordStep } from "./steps/lock-of-record"
import { retryVoidStep } from "./steps/retry-void"
import { cancelVoidedOrphanPaymentsStep } from "./steps/cancel-voided-orphan-payments"
import { giveLock, takeLock } from "./take-lock"

/** `POST /admin/paybright/voids/:id/retry`: a new attempt at a void the lender refused, under the record's lock. */
export const retryVoidWorkflow = createWorkflow("paybright-retry-void-workflow", (input: { record_id: string }) => {
  const located = lockOfRecordStep(input)
  const key = transform({ located }, ({ located }) => located.lock_key)
  const owner = takeLock(key)
  const record = retryVoidStep(input)
  giveLock(key, owner)
  // An orphan's void (no payment on the record) leaves Medusa's payments on the contract to cancel.
  cancelVoidedOrphanPaymentsStep(
    transform({ record }, ({ record }) => ({ contract: record.payment_id ? null : record.contract }))
  )
  return new WorkflowResponse(record)
})
