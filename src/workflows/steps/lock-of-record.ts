import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { paymentLockKey } from "../../lib/payment-lock"
import { findRecord } from "../../lib/record-queries"
import { requireApprovalOfContract } from "../../lib/void-contract"
import { approvalLockKey } from "../../lib/cart-lock"

export const lockOfRecordStepId = "paybright-lock-of-record-step"

export type LockOfRecordInput = { record_id: string }

/**
 * The lock key of a record: its payment's; for the void of an approval that never became a
 * payment, the approval's cart's.
 */
export const lockOfRecordStep = createStep(lockOfRecordStepId, async (input: LockOfRecordInput, { container }) => {
  const record = await findRecord(container, input.record_id)
  const lock_key = record.payment_id
    ? paymentLockKey(record.payment_id)
    : approvalLockKey(await requireApprovalOfContract(container, record.contract!))
  return new StepResponse({ lock_key })
})
