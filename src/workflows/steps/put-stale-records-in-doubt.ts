import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { said } from "../../lib/texts/said"
import { concludeFoundEnd } from "../../lib/attempt-movement"
import type { MoneyRecordRow } from "../../modules/paybright/money-record-types"
import { recordsWriter } from "../../lib/plugin-records"
import { viaOf } from "../../lib/movement-via"

export const putStaleRecordsInDoubtStepId = "paybright-put-stale-records-in-doubt-step"

export type PutStaleRecordsInDoubtInput = { claimed: MoneyRecordRow[] }

/**
 * Records their movement claimed whose call never ended here: the lender may have acted, so each
 * goes in doubt for a person to resolve.
 *
 * No compensation: taking a doubt back would let the next movement of the payment run while its
 * money may have moved.
 */
export const putStaleRecordsInDoubtStep = createStep(
  putStaleRecordsInDoubtStepId,
  async (input: PutStaleRecordsInDoubtInput, { container }) => {
    const funnel = {
      records: recordsWriter(container),
      logger: container.resolve<Logger>(ContainerRegistrationKeys.LOGGER),
    }
    for (const record of input.claimed) {
      await concludeFoundEnd(funnel, record, {
        outcome: "in_doubt",
        via: await viaOf(container, record.payment_id),
        fact: said("call_never_finished"),
        reason: "reconciliation",
      })
    }
    return new StepResponse(input.claimed.map((record) => record.id))
  }
)
