import { MedusaError } from "@medusajs/framework/utils"
import { merchantMessage, type MoneyFacts } from "./merchant-messages"
import { english } from "./texts/said"
import { MerchantError } from "./merchant-error"
import type { Failure } from "./classify-failure"
import type { MoneyKind, MoneyRecordRow, MoneyTrigger } from "../modules/paybright/money-record-types"
import type { NewMoneyRecord } from "../modules/paybright/records"
import { appQuery } from "./plugin-records"
import { orderOfCollection } from "./medusa-links"
import { blockedMessage, REMOVED_BY_MEDUSA } from "./in-doubt"

/** The order a payment belongs to, as records and logs name it. */
export type MovementOrder = { id: string; display_id: number }

export type AttemptInput = {
  kind: MoneyKind
  /** None for the void of an approval that never became a payment. */
  paymentId: string | null
  /** The payment's order; none without a payment. */
  order: MovementOrder | undefined
  /** Medusa's Capture or Refund id, or the id of the Payment a void cancels. */
  medusaId: string | null
  /** Why a record the plugin's workflows did not prepare is made; "admin" unless said. */
  trigger?: MoneyTrigger
  /** The refused record this attempt retries. */
  retryOf?: string
  /** The resolved record this movement records in Medusa (a person's resolution names it on its Refund). */
  resolves?: string
  /** What moves at the lender: two decimals. */
  amount: string
  /** Medusa's exact amount for the Capture or Refund. */
  medusaAmount: string
  currency: string
  contract: string
  /** The x_reference sent to the lender, or the processor's idempotency key. */
  reference: string | null
  /** "PayBright" or the card processor's name. */
  via: string
  /**
   * The Captures and Refunds Medusa has on the payment now: a done record whose row is not among
   * them is put in doubt before anything moves (see doubtOf).
   */
  medusaRows?: ReadonlySet<string>
}

export type AttemptResult = { outcome: "done"; evidence?: Record<string, string> } | Failure

/**
 * One capture, refund or void is recorded before the lender is called, with Medusa's id on it, so
 * a process that dies during the call leaves a record the reconciliation finds: attemptMovement
 * (src/lib/attempt-movement.ts) opens it with the module service (openMovementRecord, with these
 * arguments) and concludes it there (concludeMoneyRecord, with conclusionOf). The
 * opening refuses, before anything is sent, while another movement of the payment is in doubt. A
 * record the plugin's own workflows prepared (a parcel's capture, a retry: pending, same amount)
 * is claimed, and so is the resolved record a person's resolution names; any other movement (an
 * admin's capture or refund, an order cancelled) gets a record of its own.
 */
export function openingOf(input: AttemptInput) {
  const claim = { resolves: input.resolves, medusa_rows: input.medusaRows }
  const fields: NewMoneyRecord = {
    kind: input.kind,
    trigger: input.trigger ?? "admin",
    retry_of: input.retryOf ?? null,
    payment_id: input.paymentId,
    order_id: input.order?.id ?? null,
    currency_code: input.currency,
    medusa_id: input.medusaId,
    reference: input.reference,
    contract: input.contract,
    amount: input.amount,
    medusa_amount: input.medusaAmount,
  }
  return [claim, fields, REMOVED_BY_MEDUSA] as const
}

/** The refusal of a movement the opening found blocked by `doubt`. */
export function blockedByDoubt(doubt: MoneyRecordRow, input: AttemptInput): MedusaError {
  return new MerchantError(MedusaError.Types.NOT_ALLOWED, blockedMessage(doubt, input.contract))
}

/**
 * How the movement ended, as its record keeps it (the outcome, the evidence and the merchant's
 * message), and the line the log keeps of it: in doubt at error level, once, since a person must
 * look at it.
 */
export function conclusionOf(input: AttemptInput, result: AttemptResult) {
  const facts: MoneyFacts = {
    movement: input.kind,
    outcome: result.outcome,
    amount: input.amount,
    currency: input.currency,
    contract: input.contract,
    via: input.via,
    fact: result.outcome === "done" ? undefined : result.fact,
  }
  const message = merchantMessage(facts)
  const text = english(message)
  // The lender's HTTP status is left out of what the merchant reads, and kept here.
  const status = result.outcome === "done" ? undefined : result.evidence?.http_status
  const where = `order #${input.order?.display_id ?? "?"}, contract ${input.contract}, ${input.amount} ${input.currency.toUpperCase()}${status ? `, HTTP ${status}` : ""}`
  const log =
    result.outcome === "in_doubt"
      ? { level: "error" as const, line: `PayBright: ${input.kind} IN DOUBT (${where}): ${text}` }
      : result.outcome === "refused"
        ? { level: "warn" as const, line: `PayBright: ${input.kind} refused (${where}): ${text}` }
        : { level: "info" as const, line: `PayBright: ${input.kind} done (${where})` }
  return {
    record: { state: result.outcome, message, amount: input.amount, evidence: result.evidence ?? null },
    log,
  }
}

/**
 * The order a movement's payment collection belongs to, as records and logs name it, read through
 * the application's query (Medusa hands none to a provider); none while the collection is a cart's.
 */
export async function orderOfMovement(paymentCollectionId: string): Promise<MovementOrder | undefined> {
  const order = await orderOfCollection<MovementOrder>(appQuery(), paymentCollectionId, ["id", "display_id"])
  return order ? { id: order.id, display_id: order.display_id } : undefined
}

/**
 * The note of the Refund that records a person's resolution in Medusa: it names the resolved record
 * (Medusa's refund workflow takes a note and keeps it on the Refund, where the merchant sees it).
 */
export function resolutionNote(recordId: string): string {
  return `PayBright record ${recordId} resolved as refunded at PayBright`
}

/** The resolved record a Refund's note names, if it records a resolution. */
export function resolvedRecordOf(note: unknown): string | undefined {
  return typeof note === "string" ? /^PayBright record (pbrec_\w+) resolved as refunded/.exec(note)?.[1] : undefined
}
