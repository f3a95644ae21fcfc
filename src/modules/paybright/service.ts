import { spoken, type Sentence } from "../../lib/texts/said"
import type { Context } from "@medusajs/framework/types"
import {
  InjectManager,
  InjectTransactionManager,
  MathBN,
  MedusaContext,
  MedusaError,
  MedusaService,
} from "@medusajs/framework/utils"
import { type OrphanReason, supersedes } from "./approval-reasons"
import { PayBrightApproval } from "./models/paybright-approval"
import { PayBrightCardTransaction } from "./models/paybright-card-transaction"
import { PayBrightEvent } from "./models/paybright-event"
import { PayBrightMoneyRecord } from "./models/paybright-money-record"
import { PayBrightSettings } from "./models/paybright-settings"
import { medusaAmountOf, type MoneyRecordRow, type MoneyState, sameMedusaAmount } from "./money-record-types"
import type {
  ApprovalBefore,
  ApprovalRow,
  ApprovalWords,
  DoubtReason,
  NewCardMovement,
  NewEvent,
  NewMoneyRecord,
  PayBrightRecordsWriter,
  Resolution,
  ResolutionUndo,
  SettingsRow,
  SettingsSave,
  SettingsUndo,
  VerifiedApproval,
} from "./records"

/**
 * The plugin's own records: every capture and refund, the virtual card's movements, the contracts
 * the lender approved, the event log of each payment, and the settings saved in the admin.
 *
 * It is the one writer of the rows of a money record, a card movement, an approval and the
 * settings: the rules of which state may move where live in the moves below, and a move the
 * merchant reads of writes its event row in the same transaction, so the timeline never misses one.
 * What the merchant reads is written by src/lib and handed in: this module knows the rows, not
 * the words. The rest of the plugin holds it as PayBrightRecordsReader or PayBrightRecordsWriter
 * (records.ts), never as this class, so no caller reaches the generated create, update and delete.
 */
export default class PayBrightModuleService
  extends MedusaService({
    PayBrightMoneyRecord,
    PayBrightCardTransaction,
    PayBrightApproval,
    PayBrightEvent,
    PayBrightSettings,
  })
  implements PayBrightRecordsWriter
{
  // The event log, for what is not a record's or an approval's move (a card revealed, settings saved).

  /** Appends rows to the event log; answers their ids. */
  @InjectTransactionManager()
  async recordEvents(events: NewEvent[], @MedusaContext() sharedContext: Context = {}): Promise<string[]> {
    const created = await this.createPayBrightEvents(events.map(eventRow), sharedContext)
    return created.map((event) => event.id)
  }

  /** Takes back rows recordEvents appended, when the workflow that wrote them is undone. */
  @InjectTransactionManager()
  async withdrawEvents(ids: string[], @MedusaContext() sharedContext: Context = {}): Promise<void> {
    if (ids.length) await this.deletePayBrightEvents(ids, sharedContext)
  }

  // Money records: a capture, refund or void from its writing to its resolution.

  /**
   * A movement's record written ahead of it: pending, for the provider to claim when Medusa calls
   * it (openMovementRecord), or refused with why it was not started, which the merchant reads.
   */
  @InjectTransactionManager()
  async prepareMoneyRecord(
    fields: NewMoneyRecord,
    outcome: { state: "pending" } | { state: "refused"; message: Sentence },
    @MedusaContext() sharedContext: Context = {}
  ): Promise<MoneyRecordRow> {
    const written = outcome.state === "refused" ? { state: outcome.state, ...spoken(outcome.message) } : outcome
    const record = asRecord(await this.createPayBrightMoneyRecords({ ...fields, ...written } as never, sharedContext))
    if (outcome.state === "refused") {
      await this.writeRecordEvent(
        record,
        { message: outcome.message, details: { reason: "not_started" } },
        sharedContext
      )
    }
    return record
  }

  /**
   * The record of a capture the plugin makes by itself (a parcel's, or the retry of a refused one),
   * decided and written in one transaction under the payment's lock, before Medusa or the lender
   * is asked:
   * - a parcel with a record under one of `parcelKeys` keeps it (one capture per parcel), answered
   *   whatever else holds;
   * - without `capture` there is nothing to capture now (the caller knows why): nothing is written;
   * - with a `refusal` (Medusa cancelled what remained authorized) it is refused with it;
   * - a movement of the payment in doubt refuses it with what blocks it, except a retry, which
   *   writes nothing (the record it retries stands refused) and is answered the doubt;
   * - otherwise it is pending, for the provider to claim when Medusa calls it.
   */
  @InjectTransactionManager()
  async prepareCaptureRecord(
    parcelKeys: string[] | null,
    capture: { fields: NewMoneyRecord; refusal: Sentence | null } | null,
    words: { blocked(doubt: MoneyRecordRow): Sentence },
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ existing: MoneyRecordRow } | { record: MoneyRecordRow | null } | { blocked: MoneyRecordRow }> {
    if (parcelKeys) {
      const [existing] = await this.listPayBrightMoneyRecords({ idempotency_key: parcelKeys }, {}, sharedContext)
      if (existing) return { existing: asRecord(existing) }
    }
    if (!capture) return { record: null }
    const { fields, refusal } = capture
    if (refusal) {
      return { record: await this.prepareMoneyRecord(fields, { state: "refused", message: refusal }, sharedContext) }
    }
    const doubt = fields.payment_id ? await this.standingDoubt(fields.payment_id, sharedContext) : undefined
    if (doubt && fields.retry_of) return { blocked: doubt }
    const outcome = doubt ? { state: "refused" as const, message: words.blocked(doubt) } : { state: "pending" as const }
    return { record: await this.prepareMoneyRecord(fields, outcome, sharedContext) }
  }

  /** Medusa's id on the claimed record (one a person resolved keeps the amount they confirmed), or a new record. */
  private async claimOrCreate(
    prepared: MoneyRecordRow | null,
    fields: NewMoneyRecord,
    sharedContext: Context
  ): Promise<MoneyRecordRow> {
    if (!prepared) {
      return asRecord(await this.createPayBrightMoneyRecords({ ...fields, state: "pending" } as never, sharedContext))
    }
    const claim = prepared.id
    const movement = {
      medusa_id: fields.medusa_id ?? null,
      reference: fields.reference ?? null,
      contract: fields.contract,
      ...(prepared.order_id ? {} : { order_id: fields.order_id }),
    }
    return asRecord(
      await this.updatePayBrightMoneyRecords(
        prepared.state === "done"
          ? { id: claim, ...movement }
          : ({ id: claim, ...movement, amount: fields.amount, medusa_amount: fields.medusa_amount } as never),
        sharedContext
      )
    )
  }

  /**
   * The record in doubt that stops every further movement of a payment, if any. Given the Captures
   * and Refunds Medusa has on the payment now (`medusaRows`), a record Medusa's movement claimed
   * whose row Medusa then removed is put in doubt first: done (Medusa's update of the payment
   * failed after the provider's success), the lender moved money Medusa no longer counts; pending
   * (the provider failed before it could write the outcome), the lender may have. Either way a
   * retry would move it twice. The caller holds the payment's lock, so no claimed movement of it
   * is still running.
   */
  @InjectTransactionManager()
  async doubtOfPayment(
    paymentId: string,
    medusaRows: ReadonlySet<string> | undefined,
    words: { parted(record: MoneyRecordRow): Sentence },
    @MedusaContext() sharedContext: Context = {}
  ): Promise<MoneyRecordRow | undefined> {
    if (!medusaRows) return this.standingDoubt(paymentId, sharedContext)
    const rows = await this.movementRecordsOf(paymentId, ["in_doubt", "done"], sharedContext)
    return this.doubtAmong(rows, medusaRows, words, sharedContext)
  }

  /** A payment's records in these states, oldest first. */
  private async movementRecordsOf(
    paymentId: string,
    states: MoneyState[],
    sharedContext: Context
  ): Promise<MoneyRecordRow[]> {
    return (await this.listPayBrightMoneyRecords(
      { payment_id: paymentId, state: states },
      { order: { created_at: "ASC" } },
      sharedContext
    )) as unknown as MoneyRecordRow[]
  }

  /** doubtOfPayment's rule, over the payment's records (oldest first) read by the caller. */
  private async doubtAmong(
    rows: MoneyRecordRow[],
    medusaRows: ReadonlySet<string>,
    words: { parted(record: MoneyRecordRow): Sentence },
    sharedContext: Context
  ): Promise<MoneyRecordRow | undefined> {
    const doubt = rows.find((row) => row.state === "in_doubt")
    if (doubt) return doubt
    const removed = rows.find(
      (row) =>
        (row.state === "done" || row.state === "pending") &&
        (row.kind === "capture" || row.kind === "refund") &&
        row.medusa_id &&
        !medusaRows.has(row.medusa_id)
    )
    if (!removed) return undefined
    return this.putMoneyRecordInDoubt(
      removed.id,
      { message: words.parted(removed), reason: "removed_by_medusa" },
      sharedContext
    )
  }

  /**
   * The record of a movement Medusa is making (the provider's capture or refund), before the
   * lender is called, or the record in doubt that blocks it. What the plugin's own workflows wrote
   * ahead of it is claimed: the resolved record a person's resolution names, or the latest pending
   * unclaimed record of the payment, kind and Medusa's amount; any other movement gets its own.
   */
  @InjectTransactionManager()
  async openMovementRecord(
    movement: { resolves?: string | null; medusa_rows?: ReadonlySet<string> },
    fields: NewMoneyRecord,
    words: { parted(record: MoneyRecordRow): Sentence },
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ record: MoneyRecordRow } | { blocked: MoneyRecordRow }> {
    const paymentId = fields.payment_id
    if (!paymentId) return { record: await this.claimOrCreate(null, fields, sharedContext) }
    // Given Medusa's rows, one read of the payment's records answers both questions: whether a
    // movement is in doubt, and which record written ahead of this movement it claims.
    const rows = movement.medusa_rows
      ? await this.movementRecordsOf(paymentId, ["in_doubt", "done", "pending"], sharedContext)
      : undefined
    const blocked = rows
      ? await this.doubtAmong(rows, movement.medusa_rows!, words, sharedContext)
      : await this.standingDoubt(paymentId, sharedContext)
    if (blocked) return { blocked }
    const unclaimed = (rows ?? (await this.movementRecordsOf(paymentId, ["done", "pending"], sharedContext))).filter(
      (row) => row.kind === fields.kind && row.medusa_id === null
    )
    const claim = movement.resolves
      ? unclaimed.find((row) => row.id === movement.resolves && row.state === "done")
      : unclaimed
          .filter((row) => row.state === "pending")
          .slice(-1)
          .find((row) => sameMedusaAmount(medusaAmountOf(row), fields.medusa_amount))
    return { record: await this.claimOrCreate(claim ?? null, fields, sharedContext) }
  }

  /** A movement's outcome, with the lender's evidence and what the merchant reads. */
  @InjectTransactionManager()
  async concludeMoneyRecord(
    id: string,
    outcome: {
      state: Exclude<MoneyState, "pending">
      message: Sentence
      /** What moved, in the lender's cents, as the event shows it. */
      amount: string
      evidence?: Record<string, string> | null
    },
    @MedusaContext() sharedContext: Context = {}
  ): Promise<MoneyRecordRow> {
    const record = asRecord(
      await this.updatePayBrightMoneyRecords(
        {
          id,
          state: outcome.state,
          ...spoken(outcome.message),
          lender_evidence: (outcome.evidence ?? null) as never,
        },
        sharedContext
      )
    )
    await this.writeRecordEvent(
      record,
      {
        message: outcome.message,
        details: { amount: outcome.amount, evidence: outcome.evidence ?? null },
      },
      sharedContext
    )
    return record
  }

  /**
   * A record the lender may have acted on while the store cannot tell: nothing of its payment moves
   * until a person resolves it.
   */
  @InjectTransactionManager()
  async putMoneyRecordInDoubt(
    id: string,
    doubt: { message: Sentence; reason: DoubtReason },
    @MedusaContext() sharedContext: Context = {}
  ): Promise<MoneyRecordRow> {
    const record = asRecord(
      await this.updatePayBrightMoneyRecords({ id, state: "in_doubt", ...spoken(doubt.message) }, sharedContext)
    )
    await this.writeRecordEvent(record, { message: doubt.message, details: { reason: doubt.reason } }, sharedContext)
    return record
  }

  /**
   * A pending record no movement claimed (no Medusa id): nothing was sent, so it is refused and may
   * be retried. `medusaId` names the Capture or Refund Medusa had committed for it and the caller
   * removed. A record claimed meanwhile is answered as it stands.
   */
  @InjectTransactionManager()
  async refuseUnstartedRecord(
    id: string,
    refusal: { message: Sentence; medusa_id?: string | null },
    @MedusaContext() sharedContext: Context = {}
  ): Promise<MoneyRecordRow> {
    const current = await this.moneyRecord(id, sharedContext)
    if (current.state !== "pending" || current.medusa_id) return current
    const record = asRecord(
      await this.updatePayBrightMoneyRecords(
        { id, state: "refused", ...spoken(refusal.message), medusa_id: refusal.medusa_id ?? null },
        sharedContext
      )
    )
    await this.writeRecordEvent(record, { message: refusal.message, details: { reason: "not_started" } }, sharedContext)
    return record
  }

  /** A Capture or Refund Medusa counts that no record explains: its record, in doubt from the start. */
  @InjectTransactionManager()
  async recordUnexplainedMovement(
    fields: NewMoneyRecord & { medusa_id: string },
    message: Sentence,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<MoneyRecordRow> {
    const record = asRecord(
      await this.createPayBrightMoneyRecords(
        { ...fields, state: "in_doubt", ...spoken(message) } as never,
        sharedContext
      )
    )
    await this.writeRecordEvent(record, { message, details: { reason: "unexplained_in_medusa" } }, sharedContext)
    return record
  }

  /**
   * Removes the records of `ids` still pending and unclaimed: written ahead of movements Medusa did
   * not start (its own checks refused the request). A claimed record is never removed.
   */
  @InjectTransactionManager()
  async dropUnclaimedRecords(ids: string[], @MedusaContext() sharedContext: Context = {}): Promise<number> {
    if (ids.length === 0) return 0
    const unclaimed = await this.listPayBrightMoneyRecords(
      { id: ids, state: "pending", medusa_id: null },
      { select: ["id"] },
      sharedContext
    )
    if (unclaimed.length)
      await this.deletePayBrightMoneyRecords(
        unclaimed.map((row) => row.id),
        sharedContext
      )
    return unclaimed.length
  }

  /**
   * A person's answer to a record, read off the PayBright portal: done or refused, who said so, and
   * the card's in-doubt movements of it following. Answers what undoResolution puts back should
   * Medusa refuse its side of it.
   */
  @InjectTransactionManager()
  async resolveMoneyRecord(
    id: string,
    resolution: Resolution,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ record: MoneyRecordRow; undo: ResolutionUndo }> {
    const before = await this.moneyRecord(id, sharedContext)
    const cardRows = before.medusa_id
      ? await this.listPayBrightCardTransactions({ medusa_id: before.medusa_id, state: "in_doubt" }, {}, sharedContext)
      : []
    const record = asRecord(
      await this.updatePayBrightMoneyRecords(
        {
          id,
          state: resolution.lender_shows === "done" ? "done" : "refused",
          resolved_by: resolution.actor,
          resolved_at: new Date(),
          ...spoken(resolution.message),
          ...(resolution.medusa_id !== undefined ? { medusa_id: resolution.medusa_id } : {}),
          ...(resolution.amount !== undefined ? { amount: resolution.amount } : {}),
          ...(resolution.medusa_amount !== undefined ? { medusa_amount: resolution.medusa_amount } : {}),
        } as never,
        sharedContext
      )
    )
    for (const row of cardRows) {
      await this.updatePayBrightCardTransactions(
        { id: row.id, state: resolution.lender_shows === "done" ? "done" : "refused" },
        sharedContext
      )
    }
    const [event] = await this.createPayBrightEvents(
      [
        eventRow({
          kind: "record.resolved",
          payment_id: record.payment_id,
          order_id: record.order_id,
          contract: record.contract,
          actor: resolution.actor,
          message: resolution.message,
          details: { record_id: record.id, lender_shows: resolution.lender_shows },
        }),
      ],
      sharedContext
    )
    const { state, medusa_id, resolved_by, resolved_at, message, said } = before
    return {
      record,
      undo: {
        record: {
          id,
          state,
          medusa_id,
          resolved_by,
          message,
          said,
          amount: exactOf(before.raw_amount ?? before.amount),
          medusa_amount:
            (before.raw_medusa_amount ?? before.medusa_amount) == null
              ? null
              : exactOf(before.raw_medusa_amount ?? before.medusa_amount),
          resolved_at: resolved_at ? new Date(resolved_at) : null,
        },
        card_rows: cardRows.map((row) => ({ id: row.id, state: row.state as MoneyState })),
        event_id: event.id,
      },
    }
  }

  /** Puts a record back as it was before a resolution Medusa then refused, with its card rows, and takes back its event. */
  @InjectTransactionManager()
  async undoResolution(undo: ResolutionUndo, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    await this.updatePayBrightMoneyRecords(undo.record as never, sharedContext)
    for (const row of undo.card_rows) await this.updatePayBrightCardTransactions(row, sharedContext)
    await this.deletePayBrightEvents([undo.event_id], sharedContext)
  }

  // The virtual card's movements at the merchant's processor.

  /** A charge or refund on the card, pending before the processor is called; a repeat of its key reopens it. */
  @InjectTransactionManager()
  async openCardMovement(row: NewCardMovement, @MedusaContext() sharedContext: Context = {}): Promise<string> {
    const [existing] = await this.listPayBrightCardTransactions(
      { idempotency_key: row.idempotency_key },
      {},
      sharedContext
    )
    if (existing) {
      await this.updatePayBrightCardTransactions({ id: existing.id, state: "pending" }, sharedContext)
      return existing.id
    }
    const created = await this.createPayBrightCardTransactions(
      { ...row, charge_id: row.charge_id ?? null, amount: row.amount as never, state: "pending" },
      sharedContext
    )
    return created.id
  }

  @InjectTransactionManager()
  async concludeCardMovement(
    id: string,
    state: Exclude<MoneyState, "pending">,
    processorId?: string,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<void> {
    await this.updatePayBrightCardTransactions(
      { id, state, ...(processorId ? { processor_id: processorId } : {}) },
      sharedContext
    )
  }

  /** Card movements still pending since before `cutoff`: their process stopped mid-call, so they are in doubt. */
  @InjectTransactionManager()
  async putStaleCardMovementsInDoubt(cutoff: Date, @MedusaContext() sharedContext: Context = {}): Promise<string[]> {
    const stale = await this.listPayBrightCardTransactions(
      { state: "pending", updated_at: { $lt: cutoff } } as never,
      { select: ["id"] },
      sharedContext
    )
    for (const row of stale)
      await this.updatePayBrightCardTransactions({ id: row.id, state: "in_doubt" }, sharedContext)
    return stale.map((row) => row.id)
  }

  /** The payment's oldest record in doubt, if any: nothing else of the payment moves while it stands. */
  private async standingDoubt(paymentId: string, sharedContext: Context): Promise<MoneyRecordRow | undefined> {
    const [doubt] = await this.listPayBrightMoneyRecords(
      { payment_id: paymentId, state: "in_doubt" },
      { order: { created_at: "ASC" }, take: 1 },
      sharedContext
    )
    return doubt ? asRecord(doubt) : undefined
  }

  private async moneyRecord(id: string, sharedContext: Context): Promise<MoneyRecordRow> {
    return asRecord(await this.retrievePayBrightMoneyRecord(id, {}, sharedContext))
  }

  /** The event of a record's move: `<kind>.<state>`, on its payment's timeline. */
  private async writeRecordEvent(
    record: MoneyRecordRow,
    event: { message: Sentence; details: Record<string, unknown> },
    sharedContext: Context
  ): Promise<void> {
    await this.createPayBrightEvents(
      eventRow({
        kind: `${record.kind}.${record.state}`,
        payment_id: record.payment_id,
        order_id: record.order_id,
        contract: record.contract,
        message: event.message,
        details: { record_id: record.id, medusa_id: record.medusa_id, ...event.details },
      }),
      sharedContext
    )
  }

  // Approvals: a contract the lender approved, from its verification to its order or void.

  /**
   * The approval a payment session may be paid with: the one recorded for it that is still
   * approved or already ordered (at most one is: a second is recorded as an orphan), and otherwise
   * whether any was recorded (all of them orphaned or voided since).
   */
  @InjectManager()
  async approvalOfSession(
    sessionId: string,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ open?: ApprovalRow; closed?: ApprovalRow }> {
    const rows = await this.listPayBrightApprovals({ session_id: sessionId }, {}, sharedContext)
    const open = rows.find((row) => row.state === "approved" || row.state === "ordered")
    return { open, closed: open ? undefined : rows[0] }
  }

  /**
   * A contract's approval verified: its row written the first time (an orphan from the start when
   * it cannot become an order, or when its session already has a live approval), found on a
   * repeat, or replaced when a usable result follows one the store could not use.
   *
   * Two deliveries may record at the same moment (the callback and the return, or two contracts
   * of one session) with no lock between them: the table holds one row per contract and one live
   * approval per session, so the second write fails, and is made again once, against the row the
   * first one wrote (found on a repeat, an orphan of a second contract).
   */
  async recordVerifiedApproval(
    input: VerifiedApproval,
    words: ApprovalWords
  ): Promise<{ approval: ApprovalRow; created: boolean; orphaned: string | null }> {
    try {
      return await this.writeVerifiedApproval(input, words)
    } catch (error) {
      const [sameContract] = await this.listPayBrightApprovals({ contract: input.contract })
      const { open } = await this.approvalOfSession(input.session_id)
      if (!sameContract && !open) throw error
      return this.writeVerifiedApproval(input, words)
    }
  }

  @InjectTransactionManager()
  protected async writeVerifiedApproval(
    input: VerifiedApproval,
    words: ApprovalWords,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ approval: ApprovalRow; created: boolean; orphaned: string | null }> {
    // One read: the contract's row, and the session's approvals that still count on an order.
    const live = ["approved", "ordered"]
    const found = await this.listPayBrightApprovals(
      { $or: [{ contract: input.contract }, { session_id: input.session_id, state: live }] } as never,
      {},
      sharedContext
    )
    const existing = found.find((row) => row.contract === input.contract)
    if (existing && !supersedes(existing, input)) {
      return { approval: existing, created: false, orphaned: null }
    }
    const others = found.filter((row) => row.session_id === input.session_id && live.includes(row.state))
    const reason = input.orphan_reason ?? (others.length > 0 ? "second_contract" : null)
    const state = reason ? ("orphaned" as const) : ("approved" as const)
    const approval = existing
      ? await this.updatePayBrightApprovals(
          {
            id: existing.id,
            session_id: input.session_id,
            cart_id: input.cart_id,
            lender_result: input.lender_result,
            channel: input.channel,
            ...cardConfirmation(input),
            state,
            reason,
          },
          sharedContext
        )
      : await this.createPayBrightApprovals(
          {
            ...createdNow(),
            contract: input.contract,
            session_id: input.session_id,
            provider_id: input.provider_id,
            cart_id: input.cart_id,
            amount: input.amount,
            currency_code: input.currency_code,
            lender_result: input.lender_result,
            channel: input.channel,
            ...cardConfirmation(input),
            state,
            reason,
          },
          sharedContext
        )
    if (!existing) {
      await this.createPayBrightEvents(
        eventRow({
          kind: "approval.verified",
          contract: approval.contract,
          actor: "lender",
          message: words.verified(approval),
          details: { session_id: approval.session_id, cart_id: approval.cart_id, approval_id: approval.id },
        }),
        sharedContext
      )
    }
    const orphaned = reason ? await this.writeOrphanEvent(approval, words, sharedContext) : null
    return { approval, created: !existing, orphaned }
  }

  /**
   * An approval that will not become an order. Only one still `approved` moves; any other is
   * answered as it stands. `orphaned` is what the merchant was told, when it moved.
   */
  @InjectTransactionManager()
  async orphanApproval(
    id: string,
    orphan: { reason: OrphanReason; placement_error?: string | null },
    words: ApprovalWords,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ approval: ApprovalRow; before: ApprovalBefore | null; orphaned: string | null }> {
    const current = await this.retrievePayBrightApproval(id, {}, sharedContext)
    if (current.state !== "approved") return { approval: current, before: null, orphaned: null }
    const approval = await this.updatePayBrightApprovals(
      {
        id,
        state: "orphaned",
        reason: orphan.reason,
        ...(orphan.placement_error !== undefined ? { placement_error: orphan.placement_error } : {}),
      },
      sharedContext
    )
    const orphaned = await this.writeOrphanEvent(approval, words, sharedContext)
    return { approval, before: beforeOf(current), orphaned }
  }

  /** The order an approval became. */
  @InjectTransactionManager()
  async markApprovalOrdered(
    id: string,
    orderId: string,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<ApprovalRow> {
    return this.updatePayBrightApprovals({ id, state: "ordered", order_id: orderId }, sharedContext)
  }

  /**
   * The order its cart's completion answered, marked on the approval when that order is paid by
   * its contract (`order.contracts`: those of the order's live payments, none once the order is
   * gone): a cart completed earlier, by another contract or another way, answers an order this
   * approval does not pay. Answers whether it was marked.
   */
  @InjectTransactionManager()
  async markPlacedApproval(
    approval: { id: string; contract: string },
    order: { id: string; contracts: string[] },
    @MedusaContext() sharedContext: Context = {}
  ): Promise<boolean> {
    const { id } = approval
    if (!order.contracts.includes(approval.contract)) return false
    await this.markApprovalOrdered(id, order.id, sharedContext)
    return true
  }

  /** An approval marked ordered whose order no longer exists is approved again. */
  @InjectTransactionManager()
  async reopenApproval(
    id: string,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ approval: ApprovalRow; before: ApprovalBefore | null }> {
    const current = await this.retrievePayBrightApproval(id, {}, sharedContext)
    if (current.state !== "ordered") return { approval: current, before: null }
    const approval = await this.updatePayBrightApprovals({ id, state: "approved", order_id: null }, sharedContext)
    return { approval, before: beforeOf(current) }
  }

  /** An orphan whose contract was voided at the lender: the shopper carries no loan. */
  @InjectTransactionManager()
  async markApprovalVoided(
    contract: string,
    words: ApprovalWords,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<void> {
    const [approval] = await this.listPayBrightApprovals({ contract }, {}, sharedContext)
    if (approval?.state !== "orphaned") return
    await this.updatePayBrightApprovals({ id: approval.id, state: "voided" }, sharedContext)
    await this.createPayBrightEvents(
      eventRow({
        kind: "approval.voided",
        contract: approval.contract,
        actor: "system",
        message: words.voided(approval),
        details: { approval_id: approval.id },
      }),
      sharedContext
    )
  }

  /** The merchant cancelled an orphan's contract in the PayBright portal; a repeat finds it handled. */
  @InjectTransactionManager()
  async markApprovalHandled(
    id: string,
    actor: string,
    words: ApprovalWords,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<ApprovalRow> {
    const [current] = await this.listPayBrightApprovals({ id }, {}, sharedContext)
    if (!current) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `PayBright approval ${id} was not found`)
    }
    if (current.state === "handled") return current
    if (current.state !== "orphaned") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `PayBright contract ${current.contract} is ${current.state}, not orphaned: there is nothing to handle`
      )
    }
    const approval = await this.updatePayBrightApprovals(
      { id, state: "handled", handled_by: actor, handled_at: new Date() },
      sharedContext
    )
    await this.createPayBrightEvents(
      eventRow({
        kind: "approval.handled",
        contract: approval.contract,
        actor,
        message: words.handled(approval),
        details: { approval_id: approval.id },
      }),
      sharedContext
    )
    return approval
  }

  /** Puts an approval back as it was before a move a workflow then undid; its event rows stay. */
  @InjectTransactionManager()
  async restoreApproval(before: ApprovalBefore, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    await this.updatePayBrightApprovals(before, sharedContext)
  }

  private async writeOrphanEvent(approval: ApprovalRow, words: ApprovalWords, sharedContext: Context): Promise<string> {
    const sentence = await words.orphaned(approval)
    await this.createPayBrightEvents(
      eventRow({
        kind: "approval.orphaned",
        contract: approval.contract,
        message: sentence,
        details: {
          approval_id: approval.id,
          session_id: approval.session_id,
          cart_id: approval.cart_id,
          reason: approval.reason,
        },
      }),
      sharedContext
    )
    return spoken(sentence).message
  }

  // Settings saved in the admin.

  /** A provider registration's settings saved with the next version; answers what restoreSettings puts back. */
  @InjectTransactionManager()
  async saveSettings(
    save: SettingsSave,
    @MedusaContext() sharedContext: Context = {}
  ): Promise<{ saved: SettingsRow; undo: SettingsUndo }> {
    const [previous] = await this.listPayBrightSettings({ provider_id: save.provider_id }, {}, sharedContext)
    const fields = { overrides: save.overrides, encrypted_secrets: save.encrypted_secrets, updated_by: save.updated_by }
    const saved = previous
      ? await this.updatePayBrightSettings({ id: previous.id, ...fields, version: previous.version + 1 }, sharedContext)
      : await this.createPayBrightSettings({ provider_id: save.provider_id, ...fields, version: 1 }, sharedContext)
    const kept = previous
      ? {
          id: previous.id,
          overrides: previous.overrides,
          encrypted_secrets: previous.encrypted_secrets,
          version: previous.version,
          updated_by: previous.updated_by,
        }
      : null
    return { saved, undo: { id: saved.id, previous: kept } }
  }

  /** Puts back what saveSettings changed: the previous row, or none when there was none. */
  @InjectTransactionManager()
  async restoreSettings(undo: SettingsUndo, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    if (!undo.previous) {
      await this.deletePayBrightSettings(undo.id, sharedContext)
      return
    }
    const { id, overrides, encrypted_secrets, updated_by, version } = undo.previous
    // A version above the undone one, so no process keeps what was undone.
    await this.updatePayBrightSettings(
      { id, overrides, encrypted_secrets, updated_by, version: Number(version) + 2 },
      sharedContext
    )
  }
}

/** An event row: the English its message keeps, and in its details the sentence the admin writes. */
function eventRow(event: Omit<NewEvent, "actor"> & { actor?: string }) {
  const { message, said } = spoken(event.message)
  return { ...event, message, details: { ...(event.details ?? {}), said } }
}

function asRecord(row: unknown): MoneyRecordRow {
  return row as MoneyRecordRow
}

/** A stored big number as the exact text it was written from. */
function exactOf(value: unknown): string {
  return MathBN.convert(value as never).toString()
}

function beforeOf(approval: ApprovalRow): ApprovalBefore {
  const { id, state, reason, placement_error, order_id } = approval
  return { id, state, reason, placement_error, order_id }
}

/**
 * The row's creation time, set here rather than by the database: a row created in a transaction is
 * written when the transaction ends, and its grace period and its orphan's message are measured
 * from it before that. The generated create method does not declare the column it accepts.
 */
function createdNow(): object {
  return { created_at: new Date() }
}

/** The card's retrieval as the row keeps it, when the delivery retrieved it; otherwise nothing is written. */
function cardConfirmation(input: VerifiedApproval): { card_confirmed_at?: Date } {
  return input.card_confirmed_at ? { card_confirmed_at: new Date(input.card_confirmed_at) } : {}
}
