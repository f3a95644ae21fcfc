import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { CaptureRequestInput } from "../lib/capture-types"
import { locateCaptureStep } from "./steps/locate-capture"
import { prepareCaptureStep } from "./steps/prepare-capture"
import { captureInMedusaStep } from "./steps/capture-in-medusa"
import { concludeCaptureStep } from "./steps/conclude-capture"
import { giveLock, takeLock } from "./take-lock"

/**
 * A capture the plugin makes by itself, once: a parcel shipped (or fulfilled), or a person's
 * retry of a refused capture. Runs under the payment's lock (Medusa's locking module, across
 * processes with locking-postgres or locking-redis); the record is written before Medusa and the
 * lender are asked, Medusa's capture workflow runs only for a record that may proceed (its
 * provider concludes the record), and the answer says how it ended.
 */
export const capturePaymentOnceWorkflow = createWorkflow(
  "paybright-capture-payment-once-workflow",
  (input: CaptureRequestInput) => {
    const located = locateCaptureStep(input)
    const key = transform({ located }, ({ located }) => located.lock_key)
    const owner = takeLock(key)
    const prepared = prepareCaptureStep({ request: input, located })
    const failure = when({ prepared }, ({ prepared }) => prepared.proceed).then(() =>
      captureInMedusaStep(
        transform({ prepared }, ({ prepared }) =>
          prepared.proceed
            ? { payment_id: prepared.payment_id, amount: prepared.amount }
            : { payment_id: "", amount: "0" }
        )
      )
    )
    const result = concludeCaptureStep({ prepared, failure })
    giveLock(key, owner)
    return new WorkflowResponse(result)
  }
)
