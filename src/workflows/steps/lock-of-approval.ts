import { pluginRecords } from "../../lib/plugin-records"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { ApprovalRecord } from "../../lib/approval-record"

import { approvalLockKey } from "../../lib/cart-lock"

/** The lock key of an approval's void, and its contract. */
export const lockOfApprovalStep = createStep(
  "paybright-lock-of-approval-step",
  async (input: { approval_id: string }, { container }) => {
    const approval = (await pluginRecords(container).retrievePayBrightApproval(input.approval_id)) as ApprovalRecord
    return new StepResponse({ lock_key: approvalLockKey(approval), contract: approval.contract })
  }
)
