import { capturePaymentWorkflow, refundPaymentWorkflow } from "@medusajs/core-flows"
import { messageOf } from "../../../lender/log-text"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { medusaRefusedResolutionMessage, resolutionMessage } from "../../../messages/merchant-messages"
import { resolutionNote } from "../../../money/money-attempt"
import { writeEvent } from "../../../modules/paybright/write-event"
import { medusaAmountOf } from "../../../money/money-record-types"
import { lenderAmount } from "../../../money/lender-cents"
import { totalOf } from "../../../money/totals"
import type { MoneyRecordRow } from "../../../money/money-record-types"
import { findRecord, recordsOf } from "../../../money/record-queries"
import { concludeRelease } from "../../../release/release-contract"

/** The card's in-doubt movements of the record follow the person's answer. */
async function resolveCardRows(
  records: ReturnType<typeof recordsOf>,
  medusaId: string | null,
  lenderShows: "done" | "nothing"
) {
  if (!medusaId) return
  const rows = (await records.listPayBrightCardTransactions({ medusa_id: medusaId, state: "in_doubt" })) as unknown as {
    id: string
  }[]
  for (const row of rows) {
    await records.updatePayBrightCardTransactions({ id: row.id, state: lenderShows === "done" ? "done" : "refused" })
  }
}

/** What the card's refund rows of a Medusa refund show as gone back, if it went to a virtual card. */
async function refundedOnCard(
  records: ReturnType<typeof recordsOf>,
  medusaId: string | null
): Promise<string | undefined> {
  if (!medusaId) return undefined
  const rows = (await records.listPayBrightCardTransactions({ medusa_id: medusaId, kind: "refund" })) as unknown as {
    amount: unknown
    state: string
  }[]
  if (rows.length === 0) return undefined
  // In-doubt parts are what the person just confirmed; refused parts certainly did not move.
  return lenderAmount(totalOf(rows.filter((row) => row.state === "done" || row.state === "in_doubt")))
}

/**
 * A release (void) as the PayBright portal shows it: in doubt, either way; refused, "released"
 * (the merchant cancelled the contract in the portal). Released: Medusa cancels the payment, or
 * the orphaned approval reads released. Not released: the record is refused, and may be retried.
 */
async function resolveVoid(container: Parameters<typeof findRecord>[0], record: MoneyRecordRow, input: ResolveInput) {
  const resolvable = record.state === "in_doubt" || (record.state === "refused" && input.lender_shows === "done")
  if (!resolvable) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `This release is ${record.state}; there is nothing to resolve.`
    )
  }
  const amount = lenderAmount(record.amount as never)
  const message = resolutionMessage("void", input.lender_shows, amount, record.currency_code)
  const records = recordsOf(container)
  // Done first, so that Medusa's cancellation of the payment finds the void made and sends nothing;
  // should Medusa refuse it, the record goes back to what it was: it changes only with Medusa's side.
  await records.updatePayBrightMoneyRecords({
    id: record.id,
    state: input.lender_shows === "done" ? "done" : "refused",
    resolved_by: input.actor,
    resolved_at: new Date(),
    message,
  })
  if (input.lender_shows === "done") {
    try {
      await concludeRelease(container, record)
    } catch (error) {
      await records.updatePayBrightMoneyRecords({
        id: record.id,
        state: record.state,
        resolved_by: record.resolved_by ?? null,
        resolved_at: record.resolved_at ? new Date(record.resolved_at) : null,
        message: record.message,
      })
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        medusaRefusedResolutionMessage("release", messageOf(error), record.state === "refused" ? "refused" : "in doubt")
      )
    }
  }
  await writeEvent(records, {
    kind: "record.resolved",
    payment_id: record.payment_id,
    order_id: record.order_id,
    contract: record.contract,
    actor: input.actor,
    message,
    details: { record_id: record.id, lender_shows: input.lender_shows },
  })
  return findRecord(container, record.id)
}

export type ResolveInput = { record_id: string; lender_shows: "done" | "nothing"; actor: string }

/** Runs Medusa's side of a resolution; a refusal is told the merchant, with what to do, and nothing is recorded. */
async function inMedusa(movement: "capture" | "refund", record: () => Promise<unknown>) {
  try {
    await record()
  } catch (error) {
    const reason = messageOf(error)
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, medusaRefusedResolutionMessage(movement, reason))
  }
}

/**
 * A person's answer to an in-doubt record, read off the PayBright portal. "done": Medusa records
 * the movement without calling the lender again (a capture with `is_captured: true`; a refund
 * naming the record, which the provider recognises and concludes without a call); the record turns
 * done only with Medusa's side of it, and a movement Medusa refuses leaves it as it was, saying
 * why. "nothing": Medusa drops any Capture or Refund it kept for it (a process that died mid-call
 * leaves one), and a new attempt is allowed.
 */
export const resolveRecordStep = createStep(
  "paybright-resolve-record-step",
  async (input: ResolveInput, { container }) => {
    const records = recordsOf(container)
    const payments = container.resolve(Modules.PAYMENT)
    const record = await findRecord(container, input.record_id)
    if (record.kind === "void") {
      return new StepResponse(await resolveVoid(container, record, input))
    }
    const paymentId = record.payment_id!
    if (record.state !== "in_doubt") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `This record is ${record.state}, not in doubt; there is nothing to resolve.`
      )
    }
    const amount = lenderAmount(record.amount as never)
    // Medusa records its own exact amount; the record's amount is the lender's cents.
    const medusaAmount = medusaAmountOf(record).toString()
    const kept = record.medusa_id
      ? record.kind === "capture"
        ? (await payments.listCaptures({ id: record.medusa_id })).length > 0
        : (await payments.listRefunds({ id: record.medusa_id })).length > 0
      : false
    const resolved = { resolved_by: input.actor, resolved_at: new Date() }
    if (input.lender_shows === "nothing") {
      if (kept && record.medusa_id) {
        if (record.kind === "capture") await payments.deleteCaptures([record.medusa_id])
        else await payments.deleteRefunds([record.medusa_id])
      }
      await records.updatePayBrightMoneyRecords({
        id: record.id,
        state: "refused",
        ...resolved,
        message: resolutionMessage(record.kind, "nothing", amount, record.currency_code),
      })
    } else if (kept) {
      await records.updatePayBrightMoneyRecords({
        id: record.id,
        state: "done",
        ...resolved,
        message: resolutionMessage(record.kind, "done", amount, record.currency_code),
      })
    } else if (record.kind === "capture") {
      // Medusa's side first: a capture Medusa refuses (a cancelled payment) leaves the record as it was.
      const before = new Set(
        (await payments.listCaptures({ payment_id: paymentId } as never)).map((capture) => capture.id)
      )
      await inMedusa("capture", () =>
        capturePaymentWorkflow(container).run({
          input: { payment_id: paymentId, amount: medusaAmount as never, is_captured: true } as never,
        })
      )
      const made = (await payments.listCaptures({ payment_id: paymentId } as never)).find(
        (capture) => !before.has(capture.id)
      )
      try {
        await records.updatePayBrightMoneyRecords({
          id: record.id,
          state: "done",
          medusa_id: made?.id ?? null,
          ...resolved,
          message: resolutionMessage("capture", "done", amount, record.currency_code),
        })
      } catch (error) {
        if (made) await payments.deleteCaptures([made.id])
        throw error
      }
    } else {
      // A virtual-card refund split over charges records what went back, part by part: that is what moved.
      const onCard = await refundedOnCard(records, record.medusa_id)
      const recorded = onCard === undefined || onCard === amount ? medusaAmount : onCard
      // Resolved, for this resolution's own Refund to claim by the record's id (no other refund
      // claims a resolved record); put back as it was if Medusa refuses to record the refund.
      await records.updatePayBrightMoneyRecords({
        id: record.id,
        state: "done",
        medusa_id: null,
        amount: (onCard ?? amount) as never,
        medusa_amount: recorded as never,
        ...resolved,
        message: resolutionMessage("refund", "done", onCard ?? amount, record.currency_code),
      })
      try {
        await inMedusa("refund", () =>
          refundPaymentWorkflow(container).run({
            input: { payment_id: paymentId, amount: recorded as never, note: resolutionNote(record.id) },
          })
        )
      } catch (error) {
        await records.updatePayBrightMoneyRecords({
          id: record.id,
          state: record.state,
          medusa_id: record.medusa_id,
          amount: record.amount as never,
          medusa_amount: (record.medusa_amount ?? null) as never,
          resolved_by: null,
          resolved_at: null,
          message: record.message,
        })
        throw error
      }
    }
    await resolveCardRows(records, record.medusa_id, input.lender_shows)
    await writeEvent(records, {
      kind: "record.resolved",
      payment_id: paymentId,
      order_id: record.order_id,
      contract: record.contract,
      actor: input.actor,
      message: resolutionMessage(record.kind, input.lender_shows, amount, record.currency_code),
      details: { record_id: record.id, lender_shows: input.lender_shows },
    })
    return new StepResponse(await findRecord(container, record.id))
  }
)
