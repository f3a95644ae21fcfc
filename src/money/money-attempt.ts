import { MedusaError } from "@medusajs/framework/utils"
import { merchantMessage, type MoneyFacts } from "../messages/merchant-messages"
import type { Failure } from "./classify-failure"
import type { MoneyKind, MoneyRecordRow, MoneyTrigger } from "../modules/paybright/money-record-types"
import { appLogger, appQuery, pluginRecords } from "../modules/paybright/plugin-records"
import { blockedMessage, REMOVED_BY_MEDUSA } from "./in-doubt"

export type AttemptInput = {
  kind: MoneyKind
  /** None for the void of an approval that never became a payment. */
  paymentId: string | null
  /** Where the order is found; none without a payment. */
  paymentCollectionId: string | null
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

export type Attempt = {
  record: MoneyRecordRow
  /** A person already recorded this movement as made at the lender: Medusa only needs its row. */
  alreadyDone: boolean
  /** Writes the outcome, the evidence and the merchant's message; answers that message. */
  conclude(result: AttemptResult): Promise<string>
}

/**
 * Opens the record of one capture or refund before the lender is called, with Medusa's id on it,
 * so a process that dies during the call leaves a record the reconciliation finds. Refuses, before
 * anything is sent, while another movement of the payment is in doubt. A record the plugin's own
 * workflows prepared (a parcel's capture, a retry: pending, same amount) is claimed, and so is the
 * resolved record a person's resolution names; any other movement (an admin's capture or refund,
 * an order cancelled) gets a record of its own.
 */
export async function openAttempt(input: AttemptInput): Promise<Attempt> {
  const order = input.paymentCollectionId ? await orderOfCollection(input.paymentCollectionId) : undefined
  const opened = await pluginRecords().openMovementRecord(
    { resolves: input.resolves, medusa_rows: input.medusaRows },
    {
      kind: input.kind,
      trigger: input.trigger ?? "admin",
      retry_of: input.retryOf ?? null,
      payment_id: input.paymentId,
      order_id: order?.id ?? null,
      currency_code: input.currency,
      medusa_id: input.medusaId,
      reference: input.reference,
      contract: input.contract,
      amount: input.amount,
      medusa_amount: input.medusaAmount,
    },
    REMOVED_BY_MEDUSA
  )
  if ("blocked" in opened) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, blockedMessage(opened.blocked, input.contract))
  }
  const { record } = opened
  // A record a person resolved is claimed done: Medusa only needs its row.
  const alreadyDone = record.state === "done"
  return {
    record,
    alreadyDone,
    conclude: (result) => conclude(record, input, order, result),
  }
}

async function conclude(
  record: MoneyRecordRow,
  input: AttemptInput,
  order: { id: string; display_id: number } | undefined,
  result: AttemptResult
): Promise<string> {
  const records = pluginRecords()
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
  await records.concludeMoneyRecord(record.id, {
    state: result.outcome,
    message,
    amount: input.amount,
    evidence: result.evidence ?? null,
  })
  const logger = appLogger()
  const where = `order #${order?.display_id ?? "?"}, contract ${input.contract}, ${input.amount} ${input.currency.toUpperCase()}`
  if (result.outcome === "in_doubt") {
    // Logged once, here, at error level: a person must look at it.
    logger.error(`PayBright: ${input.kind} IN DOUBT (${where}): ${message}`)
  } else if (result.outcome === "refused") {
    logger.warn(`PayBright: ${input.kind} refused (${where}): ${message}`)
  } else {
    logger.info(`PayBright: ${input.kind} done (${where})`)
  }
  return message
}

async function orderOfCollection(paymentCollectionId: string) {
  const { data } = await appQuery().graph({
    entity: "order_payment_collection",
    fields: ["order.id", "order.display_id"],
    filters: { payment_collection_id: paymentCollectionId },
  })
  const order = (data[0] as { order?: { id: string; display_id: number } } | undefined)?.order
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
