import type { MoneyOutcome } from "../lenders/errors"
import type { ChannelMover, Moved } from "./settlement-types"
import type { PaymentData } from "./session-data"
import { english } from "./texts/said"
import { orderOfMovement, type AttemptInput } from "./money-attempt"
import { attemptMovement, type MovementCall } from "./attempt-movement"
import type { MoneyRecordRow, MoneyTrigger } from "../modules/paybright/money-record-types"
import { appLogger, pluginRecords, recordsWriter } from "./plugin-records"

/** What sends a void (the payment's channel's mover), or why none can: the store no longer has that channel. */
type VoidSender = ChannelMover | { unavailable: string }

export type VoidInput = {
  mover: VoidSender
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

export type Voided = { outcome: MoneyOutcome; message: string; recordId: string }

/**
 * Voids a contract's authorization at the lender once, so the shopper carries no loan: a money
 * movement like a capture, through the same funnel (src/lib/attempt-movement.ts), done, refused
 * or in doubt. A contract already voided is not voided again. Where the lender's API
 * cannot void (a virtual card), or the store no longer has the payment's channel, the record is
 * refused at once and says why and what to do.
 */
export async function voidContract(input: VoidInput): Promise<Voided> {
  const { contract } = input
  const mover = "unavailable" in input.mover ? undefined : input.mover
  const done = await doneVoidOf(contract.gateway_reference)
  if (done) {
    return { outcome: "done", message: done.message ?? "", recordId: done.id }
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
    reference: mover?.cannotVoid ? null : contract.session_id,
    via: "PayBright",
  }
  // Nothing is sent where the lender's API cannot void, or the store no longer has the channel.
  const cannot = mover ? mover.cannotVoid : (input.mover as { unavailable: string }).unavailable
  const call: MovementCall<Moved> =
    !mover || cannot ? { cannot: cannot! } : () => mover.void(contract, input.callbackUrl)
  const voided = await attemptMovement({ records: recordsWriter(), logger: appLogger() }, attempt, call)
  return { outcome: voided.outcome, message: english(voided.message), recordId: voided.recordId }
}

/** The record of the contract's void the lender made, if it made one. */
export async function doneVoidOf(contract: string): Promise<MoneyRecordRow | undefined> {
  const [done] = (await pluginRecords().listPayBrightMoneyRecords(
    { contract, kind: "void", state: "done" },
    { take: 1 }
  )) as unknown as MoneyRecordRow[]
  return done
}
