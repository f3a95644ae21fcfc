import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { lockOfRecordStep } from "./steps/lock-of-record"
import { resolveRecordStep, type ResolveInput } from "./steps/resolve-record"
import { giveLock, takeLock } from "./take-lock"
import { cancelVoidedOrphanPaymentsStep } from "./steps/cancel-voided-orphan-payments"

/** `POST /admin/paybright/records/:id/resolve`: a person resolves an in-doubt record, under the payment's lock. */
export const resolveMoneyRecordWorkflow = createWorkflow(
  "paybright-resolve-money-record-workflow",
  (input: ResolveInput) => {
    const located = lockOfRecordStep({ record_id: input.record_id })
    const key = transform({ located }, ({ located }) => located.lock_key)
    const owner = takeLock(key)
    const record = resolveRecordStep(input)
    giveLock(key, owner)
    // An orphan's void resolved as made leaves Medusa's payments on the contract to cancel.
    cancelVoidedOrphanPaymentsStep(
      transform({ record }, ({ record }) => ({
        contract: record.kind === "void" && !record.payment_id ? record.contract : null,
      }))
    )
    return new WorkflowResponse(record)
  }
)
