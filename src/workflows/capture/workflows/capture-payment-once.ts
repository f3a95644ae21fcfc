import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { CaptureRequestInput } from "../../../capture/types"
import { locateCaptureStep } from "../steps/locate-capture"
import { makeCaptureStep } from "../steps/make-capture"
import { giveLock, takeLock } from "../../locks/take-lock"
import { PAYMENT_LOCK_STEP } from "../../../locks/payment-lock"

/**
 * A capture the plugin makes by itself, once: a parcel shipped (or fulfilled), or a person's
 * retry of a refused capture. Runs under the payment's lock (Medusa's locking module, across
 * processes with locking-postgres or locking-redis); the record is written before Medusa and the
 * lender are asked, and says how it ended.
 */
export const capturePaymentOnceWorkflow = createWorkflow(
  "paybright-capture-payment-once-workflow",
  (input: CaptureRequestInput) => {
    const located = locateCaptureStep(input)
    const key = transform({ located }, ({ located }) => located.lock_key)
    const owner = takeLock(key, { name: PAYMENT_LOCK_STEP })
    const result = makeCaptureStep({ request: input, located })
    giveLock(key, owner)
    return new WorkflowResponse(result)
  }
)
