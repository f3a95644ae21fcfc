import { ContainerRegistrationKeys, MathBN, PaymentCollectionStatus } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { settingsInForce } from "../lib/provider-registry"
import { cardProcessorOf } from "../lib/payment-processor"
import { pluginRecords } from "../lib/plugin-records"
import type { PayBrightMoneyRecord, PayBrightOrderPanel, PayBrightTimelineEntry } from "../lib/admin-types"
import { isPayBright } from "../storefront/provider"
import { authorizationStart } from "../lib/authorization-age"
import { moneyRecordsOfPayment, type PanelPayment } from "./money-records"
import { paymentStatus } from "./payment-status"
import { pickPayBrightPayment } from "../lib/capture-target"
import type { ApprovalRecord } from "../lib/approval-record"
import { OWED_FIELDS, owedBy, stillCapturable, totalOf } from "../lib/totals"
import { lenderAmount } from "../lib/lender-cents"
import { isSaid, money, nested, said, spoken, verbatim, type Said } from "../lib/texts/said"
import { captureMomentOf, type CaptureTrigger } from "../lib/capture-types"

/**
 * Everything the order page's PayBright panel shows for one order, or null when the order is not
 * paid with PayBright: status in words, amounts, the masked card, captures and refunds, and the
 * timeline from the event log.
 */
export async function orderPanel(
  container: MedusaContainer,
  orderId: string,
  now = new Date()
): Promise<PayBrightOrderPanel | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      ...OWED_FIELDS,
      "payment_collections.status",
      "payment_collections.amount",
      "payment_collections.payments.id",
      "payment_collections.payments.provider_id",
      "payment_collections.payments.amount",
      "payment_collections.payments.currency_code",
      "payment_collections.payments.created_at",
      "payment_collections.payments.canceled_at",
      "payment_collections.payments.data",
      "payment_collections.payments.captures.id",
      "payment_collections.payments.captures.amount",
      "payment_collections.payments.captures.created_at",
      "payment_collections.payments.captures.created_by",
      "payment_collections.payments.refunds.id",
      "payment_collections.payments.refunds.amount",
      "payment_collections.payments.refunds.created_at",
      "payment_collections.payments.refunds.created_by",
      "payment_collections.payments.refunds.note",
      "fulfillments.id",
      "fulfillments.created_at",
      "fulfillments.shipped_at",
      "fulfillments.canceled_at",
    ],
    filters: { id: orderId },
  })
  const payments = (data[0]?.payment_collections ?? []).flatMap((collection: any) => collection?.payments ?? [])
  const approval = await orderedApproval(container, orderId)
  const payment: any = pickPayBrightPayment(payments, approval?.contract)
  if (!payment) return null

  const options = (await settingsInForce(container, payment.provider_id))?.options
  // The payments the contract was authorized on before an order change carried it into this one:
  // the panel shows the contract's whole story, and acts on this payment.
  const earlier = payments.filter(
    (other: any) =>
      other.id !== payment.id &&
      other.canceled_at &&
      isPayBright(other.provider_id) &&
      other.data?.gateway_reference === payment.data?.gateway_reference
  )
  const panelPayment: PanelPayment = {
    id: payment.id,
    currency_code: payment.currency_code,
    captures: [payment, ...earlier].flatMap((each: any) => each.captures ?? []),
    refunds: [payment, ...earlier].flatMap((each: any) => each.refunds ?? []),
  }
  const records = await moneyRecordsOfPayment(
    container,
    panelPayment,
    earlier.map((other: any) => other.id)
  )
  const captured = totalOf(panelPayment.captures)
  const refunded = totalOf(panelPayment.refunds)
  const capturedHere = totalOf(payment.captures)
  const remaining = stillCapturable({ amount: payment.amount, captured: capturedHere }, owedBy(data[0]))
  // What the contract stands for in this order: what earlier payments captured, and this one.
  const authorized = MathBN.add(MathBN.sub(captured, capturedHere), payment.amount)
  const authorizedAt = authorizationStart(payment)
  const cancelled = !!payment.canceled_at
  // Medusa cancels the payment when an order change leaves the order owing, and opens a collection
  // for what it owes; the contract is carried into it on Medusa's event, a moment later.
  const carrying =
    cancelled &&
    data[0]?.status !== "canceled" &&
    !!approval &&
    payment.data?.gateway_reference === approval.contract &&
    !records.some((record) => record.kind === "void") &&
    MathBN.gt(remaining, 0) &&
    (data[0]?.payment_collections ?? []).some(
      (collection: any) =>
        (collection?.status === PaymentCollectionStatus.NOT_PAID ||
          collection?.status === PaymentCollectionStatus.AWAITING) &&
        MathBN.gt(collection.amount ?? 0, 0)
    )
  const status = paymentStatus({
    authorized,
    captured,
    refunded,
    cancelled,
    carrying,
    records,
    authorizedAt,
    authorizationDays: options?.authorizationDays ?? 30,
    expiryWarningDays: options?.expiryWarningDays ?? 25,
    now,
  })
  const data_ = (payment.data ?? {}) as {
    gateway_reference?: string
    capture_mode?: "in_store" | "virtual_card"
    card_processor?: string | null
    card?: { last4: string; expiry: string; brand: string }
    capture_on?: "shipment" | "fulfillment" | "manual"
  }
  const captureMode = data_.capture_mode ?? options?.captureMode ?? "in_store"
  const processor = cardProcessorOf(payment.data, options)
  // Once a void of the contract was attempted, nothing more is captured on it.
  const open = !cancelled && !records.some((record) => record.kind === "void") && MathBN.gt(remaining, 0)
  // While a capture is refused, in doubt or running, the way forward is that record (retry, resolve):
  // capturing the remainder beside it would take its amount too. A refusal retried or made good
  // since (it offers no retry) no longer stands in the way, nor one whose money Medusa's own
  // "Capture payment" takes (it offers that button instead: src/views/record-actions.ts).
  const busy = records.some(
    (record) =>
      record.kind === "capture" &&
      (record.state === "refused" ? record.actions.includes("retry_capture") : record.state !== "done")
  )
  const capturedBy = options ? captureMomentOf(options, data_) : undefined
  const moment = open ? capturedBy : undefined
  const expected = moment ? captureExpected(data[0]?.fulfillments ?? [], moment, records, now) : null
  // Not while PayBright is capturing a parcel by itself: the remainder is about to change.
  const capturable = open && !busy && !(expected && !expected.overdue)

  return {
    order_id: orderId,
    payment_id: payment.id,
    contract: data_.gateway_reference ?? null,
    capture_mode: captureMode,
    capture_on: capturedBy ?? "manual",
    card_processor: processor,
    ...status,
    currency_code: payment.currency_code,
    authorized: lenderAmount(authorized),
    captured: lenderAmount(captured),
    refunded: lenderAmount(refunded),
    remaining: lenderAmount(remaining),
    card: captureMode === "virtual_card" && data_.card ? pick(data_.card) : null,
    records,
    capture_expected: expected,
    carry_expected: carrying ? since(payment.canceled_at, now) : null,
    timeline: await timelineOf(container, orderId, payment, earlier, approval, records),
    actions: {
      // Medusa's own Capture takes the whole of this payment: offered while nothing is captured on
      // it, a refused capture of all of it included (its record points to the same button).
      capture_in_medusa: capturable && MathBN.eq(capturedHere, 0),
      capture_remainder: capturable && MathBN.gt(capturedHere, 0),
      reveal_card: open && processor === "manual",
    },
  }
}

type PanelFulfillment = {
  id: string
  created_at: string | Date
  shipped_at?: string | Date | null
  canceled_at?: unknown
}

/** How long a capture at shipment, or a carry, may take to land before the panel says it has not. */
const EXPECTED_CAPTURE_MS = 120_000

/** A moment the panel waits from, and whether it has waited too long. */
function since(at: string | Date, now: Date): { since: string; overdue: boolean } {
  const moment = new Date(at)
  return { since: moment.toISOString(), overdue: now.getTime() - moment.getTime() > EXPECTED_CAPTURE_MS }
}

/** The approval the order was placed on, once marked ordered: its contract, and what PayBright approved when. */
async function orderedApproval(container: MedusaContainer, orderId: string) {
  const [ordered] = await pluginRecords(container).listPayBrightApprovals(
    { order_id: orderId, state: "ordered" },
    { select: ["contract", "amount", "currency_code", "created_at"], take: 1 }
  )
  return ordered as Pick<ApprovalRecord, "contract" | "amount" | "currency_code" | "created_at"> | undefined
}

/**
 * When the newest parcel PayBright captures by itself reached its moment (shipped, or fulfilled)
 * while its capture has no concluded record yet: the capture-at-shipment subscriber is about to
 * make it, or is making it.
 */
function captureExpected(
  fulfillments: (PanelFulfillment | null)[],
  moment: CaptureTrigger,
  records: PayBrightMoneyRecord[],
  now: Date
): PayBrightOrderPanel["capture_expected"] {
  // A capture still running is expected too: it concludes in a moment.
  const captured = new Set(
    records.filter((record) => record.state !== "pending").map((record) => record.fulfillment_id)
  )
  const shipped = fulfillments
    .flatMap((parcel) => {
      if (!parcel || parcel.canceled_at || captured.has(parcel.id)) return []
      const at = moment === "shipment" ? parcel.shipped_at : parcel.created_at
      return at ? [new Date(at).toISOString()] : []
    })
    .sort()
    .at(-1)
  return shipped ? since(shipped, now) : null
}

function pick(card: { last4: string; expiry: string; brand: string }) {
  return { last4: card.last4, expiry: card.expiry, brand: card.brand }
}

/**
 * Newest first: the event log's rows for the payment or the order (card reveals, resolutions, and
 * every attempt once the capture and refund workflows write them), completed by what the records
 * already say where the log has no row of that kind (orders placed before the log existed).
 */
async function timelineOf(
  container: MedusaContainer,
  orderId: string,
  payment: { id: string; created_at: string; currency_code: string; amount: unknown; data?: any },
  earlier: { created_at: string; amount: unknown }[],
  approval: Pick<ApprovalRecord, "amount" | "created_at"> | undefined,
  records: PayBrightMoneyRecord[]
): Promise<PayBrightTimelineEntry[]> {
  const module = pluginRecords(container)
  const events = await module.listPayBrightEvents(
    { $or: [{ payment_id: payment.id }, { order_id: orderId }] } as never,
    { order: { created_at: "DESC" }, take: 200 }
  )
  const entries: PayBrightTimelineEntry[] = events.map((event) => ({
    id: event.id,
    kind: event.kind,
    message: event.message,
    said: saidOf(event.details),
    actor: event.actor,
    at: new Date(event.created_at as never).toISOString(),
  }))
  const logged = (prefix: string) => events.some((event) => event.kind.startsWith(prefix))
  const currency = payment.currency_code.toUpperCase()
  if (!logged("approval.")) {
    // What PayBright approved and when: the approval's row, else the first payment of the contract
    // (an order change carries the contract into payments of other amounts, made later).
    const first = [...earlier, payment].sort(
      (a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime()
    )[0]
    entries.push({
      id: `approval-${payment.id}`,
      kind: "approval.verified",
      ...spoken(
        said("approval_verified_line", {
          contract: payment.data?.gateway_reference ?? "?",
          amount: money(lenderAmount((approval?.amount ?? first.amount) as never), currency),
        })
      ),
      actor: "lender",
      at: new Date(approval?.created_at ?? first.created_at).toISOString(),
    })
  }
  for (const record of records) {
    if (logged(`${record.kind}.`)) continue
    entries.push({
      id: `record-${record.id}`,
      kind: `${record.kind}.${record.state}`,
      ...spoken(recordSentence(record, currency)),
      actor: record.trigger === "admin" ? "admin" : "system",
      at: record.created_at,
    })
  }
  return entries.sort((a, b) => b.at.localeCompare(a.at))
}

/** A line for a record the event log has no row of: what it was, when, and how it ended. */
function recordSentence(record: PayBrightMoneyRecord, currency: string): Said {
  const why =
    record.said ??
    (record.message
      ? verbatim(record.message)
      : said(record.state === "in_doubt" ? "check_the_portal" : "no_reason_given"))
  return said(`${record.kind}_line_${record.state}`, {
    amount: money(record.amount, currency),
    when: nested(said(record.trigger === "admin" ? "line_from_admin" : `line_at_${record.trigger}`)),
    why: nested(why),
  })
}

/** The sentence an event row keeps in its details, if it was written with one. */
function saidOf(details: unknown): Said | null {
  const kept = (details as { said?: unknown } | null)?.said
  return isSaid(kept) ? kept : null
}
