import { acquireLockStep, releaseLockStep } from "@medusajs/core-flows"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { locateCaptureStep, type CaptureRequestInput } from "./steps/locate-capture"
import { makeCaptureStep } from "./steps/make-capture"
import { lockOwnerStep } from "./steps/lock-owner"
import { prepareCaptureRecordStep } from "./steps/prepare-capture-record"

/** A positive number of seconds from the environment, read when a workflow runs; `fallback` otherwise. */
function secondsFromEnv(name: string, fallback: number): number {
  const configured = Number(process.env[name])
  return Number.isFinite(configured) && configured > 0 ? configured : fallback
}

/** Seconds to wait for the payment's lock (PAYBRIGHT_LOCK_WAIT_SECONDS, default 60). */
export function lockWaitSeconds(): number {
  return secondsFromEnv("PAYBRIGHT_LOCK_WAIT_SECONDS", 60)
}
/**
 * How long a holder may keep the payment's lock (PAYBRIGHT_LOCK_TTL_SECONDS, default 120): longer
 * than any capture takes, and how long a process killed while holding it blocks that payment.
 */
export function lockTtlSeconds(): number {
  return secondsFromEnv("PAYBRIGHT_LOCK_TTL_SECONDS", 120)
}

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
