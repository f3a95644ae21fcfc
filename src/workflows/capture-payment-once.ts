import { acquireLockStep, releaseLockStep } from "@medusajs/core-flows"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { locateCaptureStep, type CaptureRequestInput } from "./steps/locate-capture"
import { makeCaptureStep } from "./steps/make-capture"
import { lockOwnerStep } from "./steps/lock-owner"
import { prepareCaptureRecordStep } from "./steps/prepare-capture-record"
import { lockTtlSeconds, lockWaitSeconds } from "./lock-lease"

// Where every lock of a payment looks up its wait and its lease.
export { lockTtlSeconds, lockWaitSeconds } from "./lock-lease"

/**
 * A capture the plugin makes by itself, once: a parcel shipped (or fulfilled), or a person's
 * retry of a refused capture. Runs under the payment's lock (Medusa's locking module, across
 * processes with locking-postgres or locking-redis); the record is written before Medusa and the
 * lender are asked, and says how it ended.
 */
export const capturePaymentOnceWorkflow = createWorkflow(
  "paybright-capture-payment-once",
  (input: CaptureRequestInput) => {
    const located = locateCaptureStep(input)
    const key = transform({ located }, ({ located }) => located.lock_key)
    const timeout = transform({ located }, () => lockWaitSeconds())
    const owner = lockOwnerStep({ key: key as unknown as string })
    acquireLockStep({
      key: key as unknown as string,
      ownerId: owner,
      timeout,
      ttl: transform({ located }, () => lockTtlSeconds()),
    })
    const skip = transform({ located }, ({ located }) => located.skip_reason)
    const prepared = prepareCaptureRecordStep({ request: input, skip_reason: skip })
    const result = makeCaptureStep(prepared)
    releaseLockStep({ key: key as unknown as string, ownerId: owner })
    return new WorkflowResponse(result)
  }
)
