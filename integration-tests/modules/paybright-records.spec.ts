import path from "node:path"
import { moduleIntegrationTestRunner, TestDatabaseUtils } from "@medusajs/test-utils"
import { MedusaError } from "@medusajs/framework/utils"
import { PAYBRIGHT_MODULE } from "../../src/modules/paybright"
import type { MoneyRecordRow } from "../../src/modules/paybright/money-record-types"
import type {
  ApprovalWords,
  NewMoneyRecord,
  PayBrightRecordsWriter,
  VerifiedApproval,
} from "../../src/modules/paybright/records"
import { Client } from "pg"
import { refuseWrites } from "../helpers/database-faults"
import { Migration20261129000000 } from "../../src/modules/paybright/migrations/Migration20261129000000"
import { approvalVoidedMessage, orphanMessage } from "../../src/lib/approval-messages"
import { english, type Said } from "../../src/lib/texts/said"

jest.setTimeout(120_000)

/** What a merchant reads of each approval move: plain words, so a test can find them in the event rows. */
const words: ApprovalWords = {
  verified: (approval) => `verified ${approval.contract}`,
  orphaned: (approval) => `orphaned ${approval.contract} (${approval.reason})`,
  voided: (approval) => `voided ${approval.contract}`,
  handled: (approval) => `handled ${approval.contract}`,
}
const parted = { parted: (record: MoneyRecordRow) => `parted ${record.id}` }
const blocked = { blocked: (doubt: MoneyRecordRow) => `blocked by ${doubt.id}` }

function capture(fields: Partial<NewMoneyRecord> = {}): NewMoneyRecord {
  return {
    kind: "capture",
    trigger: "admin",
    payment_id: "pay_1",
    order_id: "order_1",
    contract: "C-1",
    amount: "10000",
    medusa_amount: "100",
    currency_code: "cad",
    ...fields,
  }
}

function verified(fields: Partial<VerifiedApproval> = {}): VerifiedApproval {
  return {
    contract: "C-1",
    session_id: "payses_1",
    provider_id: "pp_paybright_paybright",
    cart_id: "cart_1",
    amount: "100.00",
    currency_code: "cad",
    lender_result: { x_gateway_reference: fields.contract ?? "C-1" },
    channel: { capture: "lender" },
    ...fields,
  }
}

/**
 * The runner creates its database as a copy of `template1`, which npm test migrates with all of
 * Medusa's tables; deriving the module's schema from its models then fails on Medusa's own types.
 * The module's database is made empty here, from `template0`, before the runner's first use of it.
 */
const DATABASE = `paybright-records-${process.env.JEST_WORKER_ID ?? "1"}`
beforeAll(async () => {
  const client = new Client({ connectionString: TestDatabaseUtils.getDatabaseURL("postgres") })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${DATABASE}"`)
    await client.query(`CREATE DATABASE "${DATABASE}" TEMPLATE template0`)
  } finally {
    await client.end()
  }
})

/**
 * The records module on its own, on a database of its own: each state move of a money record, a
 * card movement, an approval, the event log and the settings, through the reader and writer the
 * rest of the plugin holds, with real rows. A move the merchant reads of writes its event row in
 * its own transaction: when PostgreSQL refuses that row, the move leaves nothing behind.
 */
moduleIntegrationTestRunner<PayBrightRecordsWriter>({
  moduleName: PAYBRIGHT_MODULE,
  dbName: DATABASE,
  resolve: path.resolve(__dirname, "../../src/modules/paybright"),
  testSuite: ({ service, MikroOrmWrapper }) => {
    const pg = () => MikroOrmWrapper.getManager().getKnex()
    const record = async (id: string) => (await service.retrievePayBrightMoneyRecord(id)) as unknown as MoneyRecordRow
    const eventsOf = (filters: Record<string, unknown>) =>
      service.listPayBrightEvents(filters, { order: { created_at: "ASC" } })

    /** Every insert into the event log fails while the returned function is not called. */
    const refuseEvents = () =>
      refuseWrites(pg(), {
        name: "records_event",
        table: "paybright_event",
        event: "insert",
        once: false,
        message: "the event log refused the row",
      })

    describe("money records", () => {
      it("prepares a pending record without an event, and a refused one with its event", async () => {
        const pending = await service.prepareMoneyRecord(capture(), { state: "pending" })
        expect(await record(pending.id)).toMatchObject({ state: "pending", medusa_id: null, kind: "capture" })

        const refused = await service.prepareMoneyRecord(capture({ payment_id: "pay_2" }), {
          state: "refused",
          message: "nothing left to capture",
        })
        expect(refused).toMatchObject({ state: "refused", message: "nothing left to capture" })

        expect(await eventsOf({ payment_id: "pay_1" })).toEqual([])
        const [event] = await eventsOf({ payment_id: "pay_2" })
        expect(event).toMatchObject({
          kind: "capture.refused",
          message: "nothing left to capture",
          details: expect.objectContaining({ record_id: refused.id, reason: "not_started" }),
        })
      })

      it("opens a movement on the pending record written ahead of it, and a record of its own otherwise", async () => {
        const ahead = await service.prepareMoneyRecord(capture(), { state: "pending" })
        const opened = await service.openMovementRecord(
          {},
          capture({ medusa_id: "capt_1", reference: "ref-1" }),
          parted
        )
        expect("record" in opened && opened.record).toMatchObject({
          id: ahead.id,
          medusa_id: "capt_1",
          reference: "ref-1",
          state: "pending",
        })

        // Another amount is another movement: the claimed record is not claimed twice either.
        const other = await service.openMovementRecord(
          {},
          capture({ medusa_id: "capt_2", medusa_amount: "40" }),
          parted
        )
        expect("record" in other && other.record.id).not.toBe(ahead.id)
        expect(await service.listPayBrightMoneyRecords({ payment_id: "pay_1" })).toHaveLength(2)
      })

      it("concludes a movement done, refused or in doubt, each with its event", async () => {
        for (const state of ["done", "refused", "in_doubt"] as const) {
          const paymentId = `pay_${state}`
          const opened = await service.openMovementRecord(
            {},
            capture({ payment_id: paymentId, medusa_id: `capt_${state}` }),
            parted
          )
          if (!("record" in opened)) throw new Error("the movement was blocked")
          const concluded = await service.concludeMoneyRecord(opened.record.id, {
            state,
            message: `the lender said ${state}`,
            amount: "10000",
            evidence: { x_result: state },
          })
          expect(concluded).toMatchObject({ state, lender_evidence: { x_result: state } })
          expect(await eventsOf({ payment_id: paymentId })).toEqual([
            expect.objectContaining({
              kind: `capture.${state}`,
              message: `the lender said ${state}`,
              details: expect.objectContaining({
                record_id: opened.record.id,
                medusa_id: `capt_${state}`,
                amount: "10000",
                evidence: { x_result: state },
              }),
            }),
          ])
        }
      })

      it("concludes nothing when its event cannot be written", async () => {
        const opened = await service.openMovementRecord({}, capture({ medusa_id: "capt_1" }), parted)
        if (!("record" in opened)) throw new Error("the movement was blocked")
        const allow = await refuseEvents()
        await expect(
          service.concludeMoneyRecord(opened.record.id, { state: "done", message: "done", amount: "10000" })
        ).rejects.toThrow("the event log refused the row")
        await allow()
        expect(await record(opened.record.id)).toMatchObject({ state: "pending", lender_evidence: null })
        expect(await eventsOf({})).toEqual([])
      })

      it("stops every further movement of a payment while one of its records is in doubt", async () => {
        const opened = await service.openMovementRecord({}, capture({ medusa_id: "capt_1" }), parted)
        if (!("record" in opened)) throw new Error("the movement was blocked")
        const doubt = await service.putMoneyRecordInDoubt(opened.record.id, {
          message: "the lender did not answer",
          reason: "failed_after_call",
        })
        expect(doubt.state).toBe("in_doubt")
        const [event] = await eventsOf({ payment_id: "pay_1" })
        expect(event).toMatchObject({
          kind: "capture.in_doubt",
          details: expect.objectContaining({ reason: "failed_after_call" }),
        })

        const next = await service.openMovementRecord({}, capture({ kind: "refund", medusa_id: "ref_1" }), parted)
        expect(next).toEqual({ blocked: expect.objectContaining({ id: doubt.id }) })

        // The plugin's own capture is written refused with what blocks it; its retry writes nothing.
        const prepared = await service.prepareCaptureRecord(null, { fields: capture(), refusal: null }, blocked)
        expect(prepared).toEqual({
          record: expect.objectContaining({ state: "refused", message: `blocked by ${doubt.id}` }),
        })
        const retry = await service.prepareCaptureRecord(
          null,
          { fields: capture({ trigger: "retry", retry_of: doubt.id }), refusal: null },
          blocked
        )
        expect(retry).toEqual({ blocked: expect.objectContaining({ id: doubt.id }) })
        expect(await service.listPayBrightMoneyRecords({ payment_id: "pay_1" })).toHaveLength(2)
        expect(await service.doubtOfPayment("pay_1", undefined, parted)).toMatchObject({ id: doubt.id })
      })

      it("puts in doubt a claimed record whose Capture Medusa no longer has", async () => {
        const opened = await service.openMovementRecord({}, capture({ medusa_id: "capt_1" }), parted)
        if (!("record" in opened)) throw new Error("the movement was blocked")
        await service.concludeMoneyRecord(opened.record.id, { state: "done", message: "done", amount: "10000" })

        expect(await service.doubtOfPayment("pay_1", new Set(["capt_1"]), parted)).toBeUndefined()
        const doubt = await service.doubtOfPayment("pay_1", new Set(), parted)
        expect(doubt).toMatchObject({ id: opened.record.id, state: "in_doubt", message: `parted ${opened.record.id}` })
        const kinds = (await eventsOf({ payment_id: "pay_1" })).map((event) => [event.kind, event.details?.reason])
        expect(kinds).toEqual([
          ["capture.done", undefined],
          ["capture.in_doubt", "removed_by_medusa"],
        ])
      })

      it("keeps one capture per parcel, and writes nothing when there is nothing to capture", async () => {
        const first = await service.prepareCaptureRecord(
          ["parcel:ful_1"],
          { fields: capture({ trigger: "shipment", idempotency_key: "parcel:ful_1" }), refusal: null },
          blocked
        )
        expect(first).toEqual({
          record: expect.objectContaining({ state: "pending", idempotency_key: "parcel:ful_1" }),
        })
        const again = await service.prepareCaptureRecord(["parcel:ful_1"], null, blocked)
        expect(again).toEqual({ existing: expect.objectContaining({ idempotency_key: "parcel:ful_1" }) })
        expect(await service.prepareCaptureRecord(["parcel:ful_2"], null, blocked)).toEqual({ record: null })

        const cancelled = await service.prepareCaptureRecord(
          null,
          { fields: capture({ payment_id: "pay_2" }), refusal: "Medusa cancelled what remained" },
          blocked
        )
        expect(cancelled).toEqual({ record: expect.objectContaining({ state: "refused" }) })
        expect(await service.listPayBrightMoneyRecords({})).toHaveLength(2)
      })

      it("refuses an unstarted record once, and leaves a claimed or concluded one as it stands", async () => {
        const unstarted = await service.prepareMoneyRecord(capture(), { state: "pending" })
        const refused = await service.refuseUnstartedRecord(unstarted.id, {
          message: "Medusa refused the capture",
          medusa_id: "capt_removed",
        })
        expect(refused).toMatchObject({ state: "refused", medusa_id: "capt_removed" })
        const again = await service.refuseUnstartedRecord(unstarted.id, { message: "again" })
        expect(again).toMatchObject({ state: "refused", message: "Medusa refused the capture" })

        const claimed = await service.openMovementRecord(
          {},
          capture({ payment_id: "pay_2", medusa_id: "capt_2" }),
          parted
        )
        if (!("record" in claimed)) throw new Error("the movement was blocked")
        expect(await service.refuseUnstartedRecord(claimed.record.id, { message: "no" })).toMatchObject({
          state: "pending",
          medusa_id: "capt_2",
        })

        const events = await eventsOf({})
        expect(events.map((event) => [event.kind, event.details?.record_id])).toEqual([
          ["capture.refused", unstarted.id],
        ])
      })

      it("records a Capture Medusa counts that no record explains, in doubt from the start", async () => {
        const unexplained = await service.recordUnexplainedMovement(
          capture({ medusa_id: "capt_unknown" }) as NewMoneyRecord & { medusa_id: string },
          "Medusa counts a capture PayBright has no record of"
        )
        expect(unexplained).toMatchObject({ state: "in_doubt", medusa_id: "capt_unknown" })
        const [event] = await eventsOf({ payment_id: "pay_1" })
        expect(event).toMatchObject({
          kind: "capture.in_doubt",
          details: expect.objectContaining({ reason: "unexplained_in_medusa", record_id: unexplained.id }),
        })
      })

      it("drops only the unclaimed pending records it is given", async () => {
        const unclaimed = await service.prepareMoneyRecord(capture(), { state: "pending" })
        const other = await service.prepareMoneyRecord(capture({ payment_id: "pay_2" }), { state: "pending" })
        const claimed = await service.openMovementRecord(
          {},
          capture({ payment_id: "pay_3", medusa_id: "capt_3" }),
          parted
        )
        if (!("record" in claimed)) throw new Error("the movement was blocked")
        const refused = await service.prepareMoneyRecord(capture({ payment_id: "pay_4" }), {
          state: "refused",
          message: "no",
        })

        expect(await service.dropUnclaimedRecords([])).toBe(0)
        expect(await service.dropUnclaimedRecords([unclaimed.id, claimed.record.id, refused.id])).toBe(1)
        const left = (await service.listPayBrightMoneyRecords({})).map((row) => row.id).sort()
        expect(left).toEqual([other.id, claimed.record.id, refused.id].sort())
      })

      it("resolves a record in doubt with its card movements, and undoes the resolution exactly", async () => {
        const opened = await service.openMovementRecord(
          {},
          capture({ medusa_id: "capt_1", amount: "10001", medusa_amount: "100.005" }),
          parted
        )
        if (!("record" in opened)) throw new Error("the movement was blocked")
        const card = await service.openCardMovement({
          payment_id: "pay_1",
          kind: "charge",
          processor: "stripe",
          amount: "10001",
          medusa_id: "capt_1",
          idempotency_key: "charge-1",
        })
        expect(await service.putStaleCardMovementsInDoubt(new Date(Date.now() + 60_000))).toEqual([card])
        const doubt = await service.putMoneyRecordInDoubt(opened.record.id, {
          message: "the card did not answer",
          reason: "failed_after_call",
        })

        const { record: resolved, undo } = await service.resolveMoneyRecord(doubt.id, {
          lender_shows: "done",
          actor: "user_1",
          message: "the portal shows the capture",
          amount: "10000",
          medusa_amount: "100",
        })
        expect(resolved).toMatchObject({
          state: "done",
          resolved_by: "user_1",
          message: "the portal shows the capture",
        })
        expect(resolved.resolved_at).toBeTruthy()
        const [cardRow] = await service.listPayBrightCardTransactions({ id: card })
        expect(cardRow.state).toBe("done")
        const resolution = await eventsOf({ kind: "record.resolved" })
        expect(resolution).toEqual([
          expect.objectContaining({
            id: undo.event_id,
            actor: "user_1",
            details: expect.objectContaining({ record_id: doubt.id, lender_shows: "done" }),
          }),
        ])

        await service.undoResolution(undo)
        const restored = await record(doubt.id)
        expect(restored).toMatchObject({
          state: "in_doubt",
          resolved_by: null,
          resolved_at: null,
          message: "the card did not answer",
          medusa_id: "capt_1",
        })
        expect(restored.raw_amount).toMatchObject({ value: "10001" })
        expect(restored.raw_medusa_amount).toMatchObject({ value: "100.005" })
        expect((await service.listPayBrightCardTransactions({ id: card }))[0].state).toBe("in_doubt")
        expect(await eventsOf({ kind: "record.resolved" })).toEqual([])
      })

      it("resolves a record the lender shows nothing of as refused, its card movements too", async () => {
        const opened = await service.openMovementRecord({}, capture({ medusa_id: "capt_1" }), parted)
        if (!("record" in opened)) throw new Error("the movement was blocked")
        const card = await service.openCardMovement({
          payment_id: "pay_1",
          kind: "charge",
          processor: "stripe",
          amount: "10000",
          medusa_id: "capt_1",
          idempotency_key: "charge-1",
        })
        await service.concludeCardMovement(card, "in_doubt")
        await service.putMoneyRecordInDoubt(opened.record.id, { message: "unknown", reason: "reconciliation" })

        const { record: resolved } = await service.resolveMoneyRecord(opened.record.id, {
          lender_shows: "nothing",
          actor: "user_1",
          message: "the portal shows nothing",
        })
        expect(resolved.state).toBe("refused")
        expect((await service.listPayBrightCardTransactions({ id: card }))[0].state).toBe("refused")
        expect(await service.doubtOfPayment("pay_1", undefined, parted)).toBeUndefined()
      })
    })

    describe("card movements", () => {
      it("opens a movement pending, reopens it on a repeat of its key, and concludes it", async () => {
        const movement = {
          payment_id: "pay_1",
          kind: "charge" as const,
          processor: "stripe",
          amount: "10000",
          medusa_id: "capt_1",
          idempotency_key: "charge-1",
        }
        const id = await service.openCardMovement(movement)
        await service.concludeCardMovement(id, "refused")
        expect(await service.openCardMovement(movement)).toBe(id)
        expect((await service.listPayBrightCardTransactions({ id }))[0].state).toBe("pending")

        await service.concludeCardMovement(id, "done", "ch_123")
        expect((await service.listPayBrightCardTransactions({ id }))[0]).toMatchObject({
          state: "done",
          processor_id: "ch_123",
        })
        expect(await service.listPayBrightCardTransactions({})).toHaveLength(1)
      })

      it("puts in doubt only the movements still pending since before the cutoff", async () => {
        const base = {
          payment_id: "pay_1",
          kind: "charge" as const,
          processor: "stripe",
          amount: "1",
          medusa_id: "capt_1",
        }
        const stale = await service.openCardMovement({ ...base, idempotency_key: "a" })
        const done = await service.openCardMovement({ ...base, idempotency_key: "b" })
        await service.concludeCardMovement(done, "done")
        const cutoff = new Date(Date.now() + 60_000)

        expect(await service.putStaleCardMovementsInDoubt(new Date(Date.now() - 60_000))).toEqual([])
        expect(await service.putStaleCardMovementsInDoubt(cutoff)).toEqual([stale])
        const states = await service.listPayBrightCardTransactions({}, { select: ["id", "state"] })
        expect(Object.fromEntries(states.map((row) => [row.id, row.state]))).toEqual({
          [stale]: "in_doubt",
          [done]: "done",
        })
      })
    })

    describe("approvals", () => {
      it("records a verified approval once, with its event, and finds it on a repeat", async () => {
        const first = await service.recordVerifiedApproval(verified(), words)
        expect(first).toMatchObject({ created: true, orphaned: null, approval: { state: "approved", contract: "C-1" } })
        const repeat = await service.recordVerifiedApproval(verified(), words)
        expect(repeat).toMatchObject({ created: false, orphaned: null, approval: { id: first.approval.id } })

        expect(await eventsOf({ contract: "C-1" })).toEqual([
          expect.objectContaining({ kind: "approval.verified", actor: "lender", message: "verified C-1" }),
        ])
        expect(await service.approvalOfSession("payses_1")).toEqual({
          open: expect.objectContaining({ id: first.approval.id }),
          closed: undefined,
        })
      })

      it("records a second contract of a session as an orphan", async () => {
        await service.recordVerifiedApproval(verified(), words)
        const second = await service.recordVerifiedApproval(verified({ contract: "C-2" }), words)
        expect(second).toMatchObject({
          created: true,
          orphaned: "orphaned C-2 (second_contract)",
          approval: { state: "orphaned", reason: "second_contract" },
        })
        // Written in one transaction, the two rows share their time: compared as a set.
        expect((await eventsOf({ contract: "C-2" })).map((event) => event.kind).sort()).toEqual([
          "approval.orphaned",
          "approval.verified",
        ])
      })

      it("replaces an unusable result of a contract by a usable one", async () => {
        const unusable = await service.recordVerifiedApproval(verified({ orphan_reason: "unknown_result" }), words)
        expect(unusable.approval).toMatchObject({ state: "orphaned", reason: "unknown_result" })
        const usable = await service.recordVerifiedApproval(verified(), words)
        expect(usable).toMatchObject({
          created: false,
          approval: { id: unusable.approval.id, state: "approved", reason: null },
        })
      })

      it("orphans an approved approval with its event, and restores it", async () => {
        const { approval } = await service.recordVerifiedApproval(verified(), words)
        const orphan = await service.orphanApproval(
          approval.id,
          { reason: "not_placed", placement_error: "the cart's lock was held" },
          words
        )
        expect(orphan).toMatchObject({
          orphaned: "orphaned C-1 (not_placed)",
          approval: { state: "orphaned", reason: "not_placed", placement_error: "the cart's lock was held" },
          before: { id: approval.id, state: "approved", reason: null, placement_error: null, order_id: null },
        })
        expect((await eventsOf({ kind: "approval.orphaned" }))[0].details).toMatchObject({
          approval_id: approval.id,
          reason: "not_placed",
        })
        expect((await service.approvalOfSession("payses_1")).closed).toMatchObject({ id: approval.id })

        await service.restoreApproval(orphan.before!)
        expect(await service.retrievePayBrightApproval(approval.id)).toMatchObject({
          state: "approved",
          reason: null,
          placement_error: null,
        })
      })

      it("orphans nothing but an approved approval", async () => {
        const { approval } = await service.recordVerifiedApproval(verified(), words)
        await service.markApprovalOrdered(approval.id, "order_1")
        const answer = await service.orphanApproval(approval.id, { reason: "cart_changed" }, words)
        expect(answer).toMatchObject({
          before: null,
          orphaned: null,
          approval: { state: "ordered", order_id: "order_1" },
        })
        expect(await eventsOf({ kind: "approval.orphaned" })).toEqual([])
      })

      it("orphans nothing when the orphan's event cannot be written", async () => {
        const { approval } = await service.recordVerifiedApproval(verified(), words)
        const allow = await refuseEvents()
        await expect(service.orphanApproval(approval.id, { reason: "cart_changed" }, words)).rejects.toThrow(
          "the event log refused the row"
        )
        await allow()
        expect((await service.retrievePayBrightApproval(approval.id)).state).toBe("approved")
      })

      it("records nothing of an approval whose verification event cannot be written", async () => {
        const allow = await refuseEvents()
        await expect(service.recordVerifiedApproval(verified(), words)).rejects.toThrow("the event log refused the row")
        await allow()
        expect(await service.listPayBrightApprovals({})).toEqual([])
      })

      it("marks an approval placed only when the order is paid by its contract", async () => {
        const { approval } = await service.recordVerifiedApproval(verified(), words)
        expect(await service.markPlacedApproval(approval, { id: "order_other", contracts: ["C-9"] })).toBe(false)
        expect((await service.retrievePayBrightApproval(approval.id)).state).toBe("approved")
        expect(await service.markPlacedApproval(approval, { id: "order_1", contracts: ["C-1"] })).toBe(true)
        expect(await service.retrievePayBrightApproval(approval.id)).toMatchObject({
          state: "ordered",
          order_id: "order_1",
        })
      })

      it("reopens an ordered approval whose order vanished, and nothing else", async () => {
        const { approval } = await service.recordVerifiedApproval(verified(), words)
        expect(await service.reopenApproval(approval.id)).toMatchObject({
          before: null,
          approval: { state: "approved" },
        })

        await service.markApprovalOrdered(approval.id, "order_1")
        const reopened = await service.reopenApproval(approval.id)
        expect(reopened).toMatchObject({
          approval: { state: "approved", order_id: null },
          before: { state: "ordered", order_id: "order_1" },
        })
        await service.restoreApproval(reopened.before!)
        expect(await service.retrievePayBrightApproval(approval.id)).toMatchObject({
          state: "ordered",
          order_id: "order_1",
        })
      })

      it("marks voided only an orphan, with its event", async () => {
        const { approval } = await service.recordVerifiedApproval(verified(), words)
        await service.markApprovalVoided("C-1", words)
        expect((await service.retrievePayBrightApproval(approval.id)).state).toBe("approved")
        await service.markApprovalVoided("C-unknown", words)

        await service.orphanApproval(approval.id, { reason: "payment_cancelled" }, words)
        await service.markApprovalVoided("C-1", words)
        expect((await service.retrievePayBrightApproval(approval.id)).state).toBe("voided")
        expect(await eventsOf({ kind: "approval.voided" })).toEqual([
          expect.objectContaining({ contract: "C-1", message: "voided C-1", actor: "system" }),
        ])
      })

      it("moves a voided orphan stored under the earlier word, its event and its sentences, and back", async () => {
        // The sentences the plugin writes, so that the rows keep their codes as facts.
        const written: ApprovalWords = {
          ...words,
          orphaned: (approval) => orphanMessage(approval, new Date("2026-11-29T10:00:00Z")),
          voided: approvalVoidedMessage,
        }
        const { approval } = await service.recordVerifiedApproval(verified(), written)
        await service.orphanApproval(approval.id, { reason: "payment_cancelled" }, written)
        await service.markApprovalVoided("C-1", written)
        const migration = new Migration20261129000000(undefined as never, undefined as never)
        const run = async (direction: "up" | "down") => {
          migration.reset()
          await migration[direction]()
          for (const sql of migration.getQueries()) await pg().raw(sql as string)
        }
        const stored = async () => ({
          state: (await pg().raw(`select state from paybright_approval where id = ?`, [approval.id])).rows[0].state,
          events: (
            await pg().raw(`select kind, details from paybright_event where contract = 'C-1' order by kind`)
          ).rows.map((row: { kind: string; details: { said: Said } }) => [row.kind, english(row.details.said)]),
        })

        await run("down")
        expect(await stored()).toEqual({
          state: "released",
          events: [
            // Codes no text has any more are written as they are.
            ["approval.orphaned", expect.stringContaining("orphan_released_after")],
            ["approval.released", "approval_released"],
            ["approval.verified", "verified C-1"],
          ],
        })
        await expect(
          pg().raw(`update paybright_approval set state = 'voided' where id = ?`, [approval.id])
        ).rejects.toThrow(/paybright_approval_state_check/)

        await run("up")
        expect(await stored()).toEqual({
          state: "voided",
          events: [
            [
              "approval.orphaned",
              expect.stringContaining("The plugin voids it at PayBright after 2026-11-29 10:00 UTC"),
            ],
            ["approval.verified", "verified C-1"],
            ["approval.voided", "Contract C-1 ($100.00 CAD) was voided at PayBright: the shopper's loan is cancelled."],
          ],
        })
        await expect(
          pg().raw(`update paybright_approval set state = 'released' where id = ?`, [approval.id])
        ).rejects.toThrow(/paybright_approval_state_check/)
      })

      it("marks handled an orphan once, and refuses any other approval", async () => {
        const { approval } = await service.recordVerifiedApproval(verified(), words)
        await expect(service.markApprovalHandled(approval.id, "user_1", words)).rejects.toMatchObject({
          type: MedusaError.Types.NOT_ALLOWED,
        })
        await expect(service.markApprovalHandled("pbapr_missing", "user_1", words)).rejects.toMatchObject({
          type: MedusaError.Types.NOT_FOUND,
        })

        await service.orphanApproval(approval.id, { reason: "not_placed" }, words)
        const handled = await service.markApprovalHandled(approval.id, "user_1", words)
        expect(handled).toMatchObject({ state: "handled", handled_by: "user_1" })
        expect(handled.handled_at).toBeTruthy()
        const again = await service.markApprovalHandled(approval.id, "user_2", words)
        expect(again).toMatchObject({ state: "handled", handled_by: "user_1" })
        expect(await eventsOf({ kind: "approval.handled" })).toEqual([
          expect.objectContaining({ actor: "user_1", message: "handled C-1" }),
        ])
      })
    })

    describe("event log and settings", () => {
      it("appends events and withdraws them", async () => {
        const ids = await service.recordEvents([
          { kind: "card.revealed", actor: "user_1", message: "card revealed", payment_id: "pay_1" },
          { kind: "settings.changed", actor: "user_1", message: "settings changed" },
        ])
        expect(ids).toHaveLength(2)
        expect((await eventsOf({ id: ids[0] }))[0]).toMatchObject({
          kind: "card.revealed",
          details: { said: { code: "verbatim", values: { text: "card revealed" } } },
        })
        await service.withdrawEvents([ids[0]])
        await service.withdrawEvents([])
        expect((await eventsOf({})).map((event) => event.id)).toEqual([ids[1]])
      })

      it("saves settings with the next version, and puts back what a save changed", async () => {
        const save = {
          provider_id: "pp_paybright_paybright",
          overrides: { captureMode: "lender" },
          encrypted_secrets: { apiToken: "enc:1" },
          updated_by: "user_1",
        }
        const first = await service.saveSettings(save)
        expect(first.saved).toMatchObject({ version: 1, updated_by: "user_1" })
        expect(first.undo).toEqual({ id: first.saved.id, previous: null })

        const second = await service.saveSettings({ ...save, overrides: { captureMode: "card" }, updated_by: "user_2" })
        expect(second.saved).toMatchObject({ id: first.saved.id, version: 2, overrides: { captureMode: "card" } })

        await service.restoreSettings(second.undo)
        // Above the undone version, so that no process keeps what was undone.
        expect((await service.listPayBrightSettings({}))[0]).toMatchObject({
          version: 3,
          overrides: { captureMode: "lender" },
          updated_by: "user_1",
        })
        await service.restoreSettings(first.undo)
        expect(await service.listPayBrightSettings({})).toEqual([])
      })
    })
  },
})
