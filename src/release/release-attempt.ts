import type { MoneyOutcome } from "../lender/errors"
import type { Moved, Settlement } from "../settlement/types"
import type { PaymentData } from "../settlement/session-data"
import { english } from "../messages/said"
import { orderOfMovement, type AttemptInput } from "../money/money-attempt"
import { attemptMovement, type MovementCall } from "../money/attempt-movement"
import type { MoneyRecordRow, MoneyTrigger } from "../modules/paybright/money-record-types"
import { appLogger, pluginRecords } from "../modules/paybright/plugin-records"

export type ReleaseInput = {
  /** How the void is sent, or why it cannot be: the store no longer has the payment's channel. */
  settlement: Settlement | { unavailable: string }
  /** The contract as it was authorized: reference, amount, currency and test flag of the application. */
  contract: PaymentData
  /** The Medusa payment the void cancels; none for an approval that never became one. */
  paymentId: string | null
  paymentCollectionId: string | null
  trigger: MoneyTrigger
  retryOf?: string
  /** Where the lender posts the void's result as well (the plugin's callback route answers it 200). */
  callbackUrl: string
}

export type Released = { outcome: MoneyOutcome; message: string; recordId: string }

/**
 * Voids a contract's authorization at the lender once, releasing the shopper's loan: a money
 * movement like a capture, through the same funnel (src/money/attempt-movement.ts), done, refused
 * or in doubt. A contract already released is not voided again. Where the lender's API
 * cannot void (a virtual card), or the store no longer has the payment's channel, the record is
 * refused at once and says why and what to do.
 */
export async function releaseContract(input: ReleaseInput): Promise<Released> {
  const { contract } = input
  const settlement = "unavailable" in input.settlement ? undefined : input.settlement
  const [released] = (await pluginRecords().listPayBrightMoneyRecords(
    { contract: contract.gateway_reference, kind: "void", state: "done" },
    { take: 1 }
  )) as unknown as MoneyRecordRow[]
  if (released) {
    return { outcome: "done", message: released.message ?? "", recordId: released.id }
  }
  const attempt: AttemptInput = {
    kind: "void",
    paymentId: input.paymentId,
    order: input.paymentCollectionId ? await orderOfMovement(input.paymentCollectionId) : undefined,
    medusaId: input.paymentId,
    trigger: input.trigger,
    retryOf: input.retryOf,
    amount: contract.amount,
    medusaAmount: contract.amount,
    currency: contract.currency,
    contract: contract.gateway_reference,
    // Nothing is sent where the lender's API cannot void: the record names no reference then.
    reference: settlement?.cannotRelease ? null : contract.session_id,
    via: "PayBright",
  }
  // Nothing is sent where the lender's API cannot void, or the store no longer has the channel.
  const cannot = settlement ? settlement.cannotRelease : (input.settlement as { unavailable: string }).unavailable
  const call: MovementCall<Moved> =
    !settlement || cannot ? { cannot: cannot! } : () => settlement.release(contract, input.callbackUrl)
  const voided = await attemptMovement({ records: pluginRecords(), logger: appLogger() }, attempt, call)
  return { outcome: voided.outcome, message: english(voided.message), recordId: voided.recordId }
}
