import { pluginRecords, recordsWriter } from "./plugin-records"
import { capturePaymentWorkflow, refundPaymentWorkflow } from "@medusajs/core-flows"
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { messageOf } from "./texts/log-text"
import { medusaRefusedResolutionMessage, resolutionMessage } from "./merchant-messages"
import { MerchantError } from "./merchant-error"
import { lenderAmount } from "./lender-cents"
import { resolutionNote } from "./money-attempt"
import { findRecord } from "./record-queries"
import { totalOf } from "./totals"
import { medusaAmountOf, type MoneyRecordRow } from "../modules/paybright/money-record-types"
import { concludeVoid } from "./void-contract"

export type ResolveInput = { record_id: string; lender_shows: "done" | "nothing"; actor: string }

/**
 * A person's answer to an in-doubt record, read off the PayBright portal. "done": Medusa records
 * the movement without calling the lender again (a capture with `is_captured: true`; a refund
 * naming the record, which the provider recognises and concludes without a call); the record turns
 * done only with Medusa's side of it, and a movement Medusa refuses leaves it as it was, saying
 * why. "nothing": Medusa drops any Capture or Refund it kept for it (a process that died mid-call
 * leaves one), and a new attempt is allowed.
 */
export async function resolveRecord(container: MedusaContainer, input: ResolveInput): Promise<MoneyRecordRow> {
  const record = await findRecord(container, input.record_id)
  if (record.kind === "void") return resolveVoid(container, record, input)
  if (record.state !== "in_doubt") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `This record is ${record.state}, not in doubt; there is nothing to resolve.`
    )
  }
  const records = recordsWriter(container)
  const payments = container.resolve(Modules.PAYMENT)
  const paymentId = record.payment_id!
  const amount = lenderAmount(record.amount as never)
  const answer = {
    lender_shows: input.lender_shows,
    actor: input.actor,
    message: resolutionMessage(record.kind, input.lender_shows, amount, record.currency_code),
  }
  // Medusa records its own exact amount; the record's amount is the lender's cents.
  const medusaAmount = medusaAmountOf(record).toString()
  const kept = record.medusa_id
    ? record.kind === "capture"
      ? (await payments.listCaptures({ id: record.medusa_id })).length > 0
      : (await payments.listRefunds({ id: record.medusa_id })).length > 0
    : false
  if (input.lender_shows === "nothing") {
    if (kept && record.medusa_id) {
      if (record.kind === "capture") await payments.deleteCaptures([record.medusa_id])
      else await payments.deleteRefunds([record.medusa_id])
    }
    await records.resolveMoneyRecord(record.id, answer)
  } else if (kept) {
    await records.resolveMoneyRecord(record.id, answer)
  } else if (record.kind === "capture") {
    // Medusa's side first: a capture Medusa refuses (a cancelled payment) leaves the record as it was.
    const before = new Set((await payments.listCaptures({ payment_id: paymentId } as never)).map((row) => row.id))
    await inMedusa("capture", () =>
      capturePaymentWorkflow(container).run({
        input: { payment_id: paymentId, amount: medusaAmount as never, is_captured: true } as never,
      })
    )
    const made = (await payments.listCaptures({ payment_id: paymentId } as never)).find((row) => !before.has(row.id))
    try {
      await records.resolveMoneyRecord(record.id, { ...answer, medusa_id: made?.id ?? null })
    } catch (error) {
      if (made) await payments.deleteCaptures([made.id])
      throw error
    }
  } else {
    // A virtual-card refund split over charges records what went back, part by part: that is what moved.
    const onCard = await refundedOnCard(container, record.medusa_id)
    const recorded = onCard === undefined || onCard === amount ? medusaAmount : onCard
    // Resolved first, for this resolution's own Refund to claim by the record's id (no other refund
    // claims a resolved record); put back as it was if Medusa refuses to record the refund.
    const { undo } = await records.resolveMoneyRecord(record.id, {
      ...answer,
      message: resolutionMessage("refund", "done", onCard ?? amount, record.currency_code),
      medusa_id: null,
      amount: onCard ?? amount,
      medusa_amount: recorded,
    })
    try {
      await inMedusa("refund", () =>
        refundPaymentWorkflow(container).run({
          input: { payment_id: paymentId, amount: recorded as never, note: resolutionNote(record.id) },
        })
      )
    } catch (error) {
      await records.undoResolution(undo)
      throw error
    }
  }
  return findRecord(container, record.id)
}

/**
 * A void as the PayBright portal shows it: in doubt, either way; refused, "voided" (the merchant
 * cancelled the contract in the portal). Voided: Medusa cancels the payment, or the orphaned
 * approval reads voided. Not voided: the record is refused, and may be retried.
 */
async function resolveVoid(
  container: MedusaContainer,
  record: MoneyRecordRow,
  input: ResolveInput
): Promise<MoneyRecordRow> {
  const resolvable = record.state === "in_doubt" || (record.state === "refused" && input.lender_shows === "done")
  if (!resolvable) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `This void is ${record.state}; there is nothing to resolve.`)
  }
  const amount = lenderAmount(record.amount as never)
  const records = recordsWriter(container)
  // Done first, so that Medusa's cancellation of the payment finds the void made and sends nothing;
  // should Medusa refuse it, the record goes back to what it was: it changes only with Medusa's side.
  const { undo } = await records.resolveMoneyRecord(record.id, {
    lender_shows: input.lender_shows,
    actor: input.actor,
    message: resolutionMessage("void", input.lender_shows, amount, record.currency_code),
  })
  if (input.lender_shows === "done") {
    try {
      await concludeVoid(container, record)
    } catch (error) {
      await records.undoResolution(undo)
      throw new MerchantError(
        MedusaError.Types.NOT_ALLOWED,
        medusaRefusedResolutionMessage("void", messageOf(error), record.state === "refused" ? "refused" : "in doubt")
      )
    }
  }
  return findRecord(container, record.id)
}

/** Runs Medusa's side of a resolution; a refusal is told the merchant, with what to do, and nothing is recorded. */
async function inMedusa(movement: "capture" | "refund", record: () => Promise<unknown>) {
  try {
    await record()
  } catch (error) {
    throw new MerchantError(MedusaError.Types.NOT_ALLOWED, medusaRefusedResolutionMessage(movement, messageOf(error)))
  }
}

/** What the card's refund rows of a Medusa refund show as gone back, if it went to a virtual card. */
async function refundedOnCard(container: MedusaContainer, medusaId: string | null): Promise<string | undefined> {
  if (!medusaId) return undefined
  const rows = (await pluginRecords(container).listPayBrightCardTransactions({
    medusa_id: medusaId,
    kind: "refund",
  })) as unknown as { amount: unknown; state: string }[]
  if (rows.length === 0) return undefined
  // In-doubt parts are what the person just confirmed; refused parts certainly did not move.
  return lenderAmount(totalOf(rows.filter((row) => row.state === "done" || row.state === "in_doubt")))
}
