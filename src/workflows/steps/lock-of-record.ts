import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { paymentLockKey } from "../payment-lock"
import { findRecord } from "./record-queries"

/** The lock key of a record's payment. */
export const lockOfRecordStep = createStep(
  "paybright-lock-of-record",
  async (input: { record_id: string }, { container }) => {
    const record = await findRecord(container, input.record_id)
    return new StepResponse({ lock_key: paymentLockKey(record.payment_id) })
  }
)
