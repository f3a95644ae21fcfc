import type { Context, FindConfig, InferTypeOf } from "@medusajs/framework/types"
import type { Sentence } from "../../lib/texts/said"
import type { OrphanReason } from "./approval-reasons"
import type { PayBrightApproval } from "./models/paybright-approval"
import type { PayBrightCardTransaction } from "./models/paybright-card-transaction"
import type { PayBrightEvent } from "./models/paybright-event"
import type { PayBrightMoneyRecord } from "./models/paybright-money-record"
import type { PayBrightSettings } from "./models/paybright-settings"
import type { MoneyKind, MoneyRecordRow, MoneyState, MoneyTrigger } from "./money-record-types"

/**
 * The plugin's records as the rest of the plugin sees them: a reader for everyone, and a writer
 * holding only the named state moves. The module service implements both; the generated create,
 * update and delete methods stay inside src/modules/paybright, so the rules of which state may
 * move where, and the event row each move writes in its transaction, cannot be gone around.
 */

export type ApprovalRow = InferTypeOf<typeof PayBrightApproval>
export type CardMovementRow = InferTypeOf<typeof PayBrightCardTransaction>
export type EventRow = InferTypeOf<typeof PayBrightEvent>
export type SettingsRow = InferTypeOf<typeof PayBrightSettings>
/** A money record as the generated reads answer it (MoneyRecordRow is the plugin's view of it). */
export type MoneyRecordEntity = InferTypeOf<typeof PayBrightMoneyRecord>

/** What the merchant reads of an approval's moves, written by src/lib and handed in. */
export type ApprovalWords = {
  verified(approval: ApprovalRow): Sentence
  /** Knows the store's settings: when the plugin voids the orphan by itself. */
  orphaned(approval: ApprovalRow): Promise<Sentence> | Sentence
  voided(approval: ApprovalRow): Sentence
  handled(approval: ApprovalRow): Sentence
}

/** A verified approval as a delivery brings it. */
export type VerifiedApproval = {
  contract: string
  session_id: string
  /** The registration the approval was verified for: which credentials void it if it is orphaned. */
  provider_id: string
  cart_id: string | null
  amount: string
  currency_code: string
  /** The signed x_ fields as they arrived, to deliver them again (see PayBrightApproval). */
  lender_result: Record<string, string>
  /** Set when the approval can already not become an order (its session is gone, …). */
  orphan_reason?: OrphanReason | null
  /** The channel the registration verified it under: its void goes through it. */
  channel: Record<string, unknown>
  /** When its virtual card was retrieved (ISO time), if the delivery retrieved it. */
  card_confirmed_at?: string | null
}

/** One row of the event log: the order panel's timeline and the audit trail. */
export type NewEvent = {
  kind: string
  message: Sentence
  actor: string
  payment_id?: string | null
  order_id?: string | null
  contract?: string | null
  details?: Record<string, unknown> | null
}

/** A money record as it is first written, before Medusa or the lender is asked. */
export type NewMoneyRecord = {
  kind: MoneyKind
  trigger: MoneyTrigger
  payment_id: string | null
  order_id: string | null
  fulfillment_id?: string | null
  idempotency_key?: string | null
  contract: string | null
  /** The lender's cents (src/lib/lender-cents.ts). */
  amount: string
  /** Medusa's exact amount. */
  medusa_amount: string
  currency_code: string
  retry_of?: string | null
  medusa_id?: string | null
  reference?: string | null
}

/** Why a record went in doubt, kept in its event's details. */
export type DoubtReason = "reconciliation" | "removed_by_medusa" | "unexplained_in_medusa" | "failed_after_call"

/** A person's answer to a record, as the resolution writes it. */
export type Resolution = {
  lender_shows: "done" | "nothing"
  actor: string
  message: Sentence
  /** What the record says once resolved, when it changes: the Capture Medusa made, what went back on the card. */
  medusa_id?: string | null
  amount?: string
  medusa_amount?: string
}

/** What a resolution changed, for undoResolution to put back when Medusa then refuses its side. */
export type ResolutionUndo = {
  record: Pick<MoneyRecordRow, "id" | "state" | "medusa_id" | "resolved_by" | "message" | "said"> & {
    /** Exact texts, so that putting them back loses nothing. */
    amount: string
    medusa_amount: string | null
    resolved_at: Date | null
  }
  card_rows: { id: string; state: MoneyState }[]
  event_id: string
}

/** A movement on the virtual card, written before the processor is called. */
export type NewCardMovement = {
  payment_id: string
  kind: "charge" | "refund"
  processor: string
  charge_id?: string
  amount: string
  medusa_id: string
  idempotency_key: string
}

/** What an approval's move changed, for the step's compensation to put back. */
export type ApprovalBefore = Pick<ApprovalRow, "id" | "state" | "reason" | "placement_error" | "order_id">

/** What the admin saves for a provider registration: overrides and encrypted secrets. */
export type SettingsSave = {
  provider_id: string
  overrides: Record<string, unknown>
  encrypted_secrets: Record<string, string>
  updated_by: string
}

/** What a save changed, for restoreSettings to put back. */
export type SettingsUndo = {
  id: string
  previous: Pick<SettingsRow, "id" | "overrides" | "encrypted_secrets" | "version" | "updated_by"> | null
}

/** A read of one of the module's tables, as Medusa generates it. */
type List<Row> = (filters?: any, config?: FindConfig<Row>, sharedContext?: Context) => Promise<Row[]>
type Retrieve<Row> = (id: string, config?: FindConfig<Row>, sharedContext?: Context) => Promise<Row>

/** The reads the plugin makes of its records: the generated list and retrieve methods, and one question. */
export interface PayBrightRecordsReader {
  listPayBrightMoneyRecords: List<MoneyRecordEntity>
  retrievePayBrightMoneyRecord: Retrieve<MoneyRecordEntity>
  listPayBrightCardTransactions: List<CardMovementRow>
  listPayBrightApprovals: List<ApprovalRow>
  listAndCountPayBrightApprovals(
    filters?: any,
    config?: FindConfig<ApprovalRow>,
    sharedContext?: Context
  ): Promise<[ApprovalRow[], number]>
  retrievePayBrightApproval: Retrieve<ApprovalRow>
  listPayBrightEvents: List<EventRow>
  listPayBrightSettings: List<SettingsRow>
  /** The approval a payment session may be paid with (see the service). */
  approvalOfSession(sessionId: string): Promise<{ open?: ApprovalRow; closed?: ApprovalRow }>
}

/**
 * The named state moves, each documented on the service: the only writes the rest of the plugin
 * can make. Workflow steps hold it, and the few writers that run inside Medusa's own calls (the
 * provider's movements, the void's attempt, a report of unreadable settings).
 */
export interface PayBrightRecordsWriter extends PayBrightRecordsReader {
  // The event log.
  recordEvents(events: NewEvent[]): Promise<string[]>
  withdrawEvents(ids: string[]): Promise<void>

  // Money records.
  prepareMoneyRecord(
    fields: NewMoneyRecord,
    outcome: { state: "pending" } | { state: "refused"; message: Sentence }
  ): Promise<MoneyRecordRow>
  prepareCaptureRecord(
    parcelKeys: string[] | null,
    capture: { fields: NewMoneyRecord; refusal: Sentence | null } | null,
    words: { blocked(doubt: MoneyRecordRow): Sentence }
  ): Promise<{ existing: MoneyRecordRow } | { record: MoneyRecordRow | null } | { blocked: MoneyRecordRow }>
  doubtOfPayment(
    paymentId: string,
    medusaRows: ReadonlySet<string> | undefined,
    words: { parted(record: MoneyRecordRow): Sentence }
  ): Promise<MoneyRecordRow | undefined>
  openMovementRecord(
    movement: { resolves?: string | null; medusa_rows?: ReadonlySet<string> },
    fields: NewMoneyRecord,
    words: { parted(record: MoneyRecordRow): Sentence }
  ): Promise<{ record: MoneyRecordRow } | { blocked: MoneyRecordRow }>
  concludeMoneyRecord(
    id: string,
    outcome: {
      state: Exclude<MoneyState, "pending">
      message: Sentence
      amount: string
      evidence?: Record<string, string> | null
    }
  ): Promise<MoneyRecordRow>
  putMoneyRecordInDoubt(id: string, doubt: { message: Sentence; reason: DoubtReason }): Promise<MoneyRecordRow>
  refuseUnstartedRecord(id: string, refusal: { message: Sentence; medusa_id?: string | null }): Promise<MoneyRecordRow>
  recordUnexplainedMovement(fields: NewMoneyRecord & { medusa_id: string }, message: Sentence): Promise<MoneyRecordRow>
  dropUnclaimedRecords(ids: string[]): Promise<number>
  resolveMoneyRecord(id: string, resolution: Resolution): Promise<{ record: MoneyRecordRow; undo: ResolutionUndo }>
  undoResolution(undo: ResolutionUndo): Promise<void>

  // The virtual card's movements.
  openCardMovement(row: NewCardMovement): Promise<string>
  concludeCardMovement(id: string, state: Exclude<MoneyState, "pending">, processorId?: string): Promise<void>
  putStaleCardMovementsInDoubt(cutoff: Date): Promise<string[]>

  // Approvals.
  recordVerifiedApproval(
    input: VerifiedApproval,
    words: ApprovalWords
  ): Promise<{ approval: ApprovalRow; created: boolean; orphaned: string | null }>
  orphanApproval(
    id: string,
    orphan: { reason: OrphanReason; placement_error?: string | null },
    words: ApprovalWords
  ): Promise<{ approval: ApprovalRow; before: ApprovalBefore | null; orphaned: string | null }>
  markApprovalOrdered(id: string, orderId: string): Promise<ApprovalRow>
  markPlacedApproval(
    approval: { id: string; contract: string },
    order: { id: string; contracts: string[] }
  ): Promise<boolean>
  reopenApproval(id: string): Promise<{ approval: ApprovalRow; before: ApprovalBefore | null }>
  markApprovalVoided(contract: string, words: ApprovalWords): Promise<void>
  markApprovalHandled(id: string, actor: string, words: ApprovalWords): Promise<ApprovalRow>
  restoreApproval(before: ApprovalBefore): Promise<void>

  // Settings.
  saveSettings(save: SettingsSave): Promise<{ saved: SettingsRow; undo: SettingsUndo }>
  restoreSettings(undo: SettingsUndo): Promise<void>
}
