import type { Logger } from "@medusajs/framework/types"
import type { MoneyOutcome } from "../lenders/errors"
import { notStartedMessage } from "./merchant-messages"
import { english, verbatim, type Said } from "./texts/said"
import type { MoneyRecordRow } from "../modules/paybright/money-record-types"
import type { DoubtReason, PayBrightRecordsWriter } from "../modules/paybright/records"
import { classifyFailure } from "./classify-failure"
import { lenderAmount } from "./lender-cents"
import { blockedByDoubt, conclusionOf, openingOf, type AttemptInput, type AttemptResult } from "./money-attempt"

/**
 * The module service's moves a money movement makes, and nothing else of it: its record opened,
 * concluded, put in doubt, or refused before it started.
 */
export type MovementRecords = Pick<
  PayBrightRecordsWriter,
  "openMovementRecord" | "concludeMoneyRecord" | "putMoneyRecordInDoubt" | "refuseUnstartedRecord"
>

/** What the funnel works with: the one writer of money records, and the log its conclusions go to. */
export type Funnel = { records: MovementRecords; logger: Pick<Logger, "info" | "warn" | "error"> }

/** What the lender or processor answers a movement it made: its evidence, and whatever else the caller keeps of it. */
export type Made = { evidence?: Record<string, string> }

/**
 * The call that moves the money at the lender or the processor (a capture, a refund, a void, a
 * part of one), or why it cannot be made: then nothing is sent, and the record is refused with it.
 */
export type MovementCall<T extends Made> = (() => Promise<T>) | { cannot: Said | string }

export type MovementOutcome<T extends Made> = {
  outcome: MoneyOutcome
  recordId: string
  /** What the merchant reads of it, as its record keeps it. */
  message: Said
  /** What the call answered; none when nothing was called (a person recorded it made already, or nothing was left to move). */
  made?: T
}

/**
 * The one way money moves: every capture, refund and void, whoever starts it (Medusa through the
 * provider, a void), goes through here, in this order:
 *
 * 1. its record is opened with Medusa's id on it before anything is sent, so a process that dies
 *    during the call leaves a record the reconciliation finds (openingOf: what the opening claims);
 * 2. while another movement of the payment is in doubt it is refused, nothing sent (thrown);
 * 3. a record a person already resolved as made at the lender is done without a call;
 * 4. a call that cannot be made is refused with why, and nothing left to move (0.00, Medusa's
 *    remainder under half a cent) is done without one;
 * 5. the call; a failure is classified (classifyFailure): refused, or in doubt when the lender may
 *    have acted;
 * 6. the record is concluded done, refused or in doubt, with the merchant's message and one log line.
 *
 * It knows no kind: what moves and how is the caller's `call`, with the amount on `attempt`, so a
 * partial void is one more call. It lives in src/lib, not in the module: the module service
 * writes rows, not words, and this is the lowest layer that reaches both that service and the one
 * place that writes what the merchant reads (src/lib), beside the cents rule
 * (lender-cents.ts) whose amounts it records.
 */
export async function attemptMovement<T extends Made>(
  funnel: Funnel,
  attempt: AttemptInput,
  call: MovementCall<T>
): Promise<MovementOutcome<T>> {
  const { records, logger } = funnel
  const opened = await records.openMovementRecord(...openingOf(attempt))
  if ("blocked" in opened) {
    throw blockedByDoubt(opened.blocked, attempt)
  }
  const { record } = opened
  if (record.state === "done") {
    return { outcome: "done", recordId: record.id, message: record.said ?? verbatim(record.message ?? "") }
  }
  const conclude = async (result: AttemptResult, made?: T): Promise<MovementOutcome<T>> => {
    const concluded = conclusionOf(attempt, result)
    await records.concludeMoneyRecord(record.id, concluded.record)
    logger[concluded.log.level](concluded.log.line)
    return { outcome: result.outcome, recordId: record.id, message: concluded.record.message, made }
  }
  if (typeof call !== "function") {
    return conclude({ outcome: "refused", fact: call.cannot })
  }
  if (attempt.amount === "0.00") {
    // Medusa's exact remainder was less than half a cent: the lender's books are already whole.
    return conclude({ outcome: "done", evidence: { x_amount: attempt.amount } })
  }
  let made: T
  try {
    made = await call()
  } catch (error) {
    return conclude(classifyFailure(error))
  }
  return conclude({ outcome: "done", evidence: made.evidence }, made)
}

/**
 * How a movement ended that nobody saw end, as found after the fact: it never started (nothing
 * was sent), it was made (Medusa kept its row), or the lender may have acted (in doubt, with why).
 * `via` names who moves the money, as the merchant's sentence does.
 */
export type FoundEnd =
  | { outcome: "not_started"; fact: Said | string; medusaId?: string | null }
  | { outcome: "done"; via: string }
  | { outcome: "in_doubt"; via: string; fact: Said; reason: DoubtReason }

/**
 * Concludes a record whose movement's own conclusion never came (Medusa's workflow failed around
 * the provider, or its process stopped mid-call), from what the record and Medusa show: the same
 * sentences as attemptMovement's, for the movement the record names.
 */
export async function concludeFoundEnd(funnel: Funnel, record: MoneyRecordRow, end: FoundEnd): Promise<MoneyRecordRow> {
  const { records, logger } = funnel
  if (end.outcome === "not_started") {
    const message = notStartedMessage(record.kind, end.fact)
    return records.refuseUnstartedRecord(record.id, { message, medusa_id: end.medusaId ?? null })
  }
  const attempt: AttemptInput = {
    kind: record.kind,
    paymentId: record.payment_id,
    order: undefined,
    medusaId: record.medusa_id,
    amount: lenderAmount(record.amount as never),
    medusaAmount: lenderAmount(record.amount as never),
    currency: record.currency_code,
    contract: record.contract ?? "?",
    reference: record.reference,
    via: end.via,
  }
  const where = `record ${record.id}, contract ${attempt.contract}, ${attempt.amount} ${attempt.currency.toUpperCase()}`
  if (end.outcome === "done") {
    const concluded = conclusionOf(attempt, { outcome: "done" })
    const done = await records.concludeMoneyRecord(record.id, concluded.record)
    logger.info(`PayBright: ${record.kind} done (${where})`)
    return done
  }
  const { message } = conclusionOf(attempt, { outcome: "in_doubt", fact: end.fact }).record
  const doubt = await records.putMoneyRecordInDoubt(record.id, { message, reason: end.reason })
  logger.error(`PayBright: ${record.kind} IN DOUBT (${where}): ${english(message)}`)
  return doubt
}
