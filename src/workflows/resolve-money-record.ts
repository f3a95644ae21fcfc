import { acquireLockStep, releaseLockStep } from "@medusajs/core-flows"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { lockTtlSeconds, lockWaitSeconds } from "./capture-payment-once"
import { lockOfRecordStep } from "./steps/lock-of-record"
import { lockOwnerStep } from "./steps/lock-owner"
import { resolveRecordStep, type ResolveInput } from "./steps/resolve-record"

/** `POST /admin/paybright/records/:id/resolve`: a person settles an in-doubt record, under the payment's lock. */
export const resolveMoneyRecordWorkflow = createWorkflow("paybright-resolve-money-record", (input: ResolveInput) => {
  const located = lockOfRecordStep({ record_id: input.record_id })
  const key = transform({ located }, ({ located }) => located.lock_key)
  const owner = lockOwnerStep({ key })
  acquireLockStep({
    key,
    ownerId: owner,
    timeout: transform({ input }, () => lockWaitSeconds()),
    ttl: transform({ input }, () => lockTtlSeconds()),
  })
  const record = resolveRecordStep(input)
  releaseLockStep({ key, ownerId: owner })
  return new WorkflowResponse(record)
})
