import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { listOpenAuthorizations } from "../lib/authorization-expiry"
import { orphanMessage } from "../lib/approval-messages"
import { orphanVoidTimes } from "../lib/orphan-timing"
import { pluginRecords } from "../lib/plugin-records"
import { allPages } from "../lib/all-pages"
import type { MoneyRecordRow } from "../modules/paybright/money-record-types"
import { SettingsUnreadableError, standingUnreadableReports } from "../lib/unreadable-settings"
import type { PayBrightAttentionItem } from "../lib/admin-types"
import type { ApprovalRecord } from "../lib/approval-record"
import { nothingLeftToCapture, openRefusals } from "../lib/open-refusals"
import { medusaCaptureOf, recordActions } from "./record-actions"
import { lenderAmount } from "../lib/lender-cents"
import { OWED_FIELDS, owedBy, stillCapturable, totalOf } from "../lib/totals"
import { isPayBright } from "../storefront/provider"
import { uncoveredBalanceMessage } from "../lib/merchant-messages"
import { isSaid, said, spoken } from "../lib/texts/said"

/**
 * Most urgent first: a process that refuses all PayBright work, what may have moved money, then
 * what was refused, then what expires.
 */
const ORDER: Record<PayBrightAttentionItem["kind"], number> = {
  settings_unreadable: 0,
  in_doubt: 1,
  unvoided_contract: 2,
  refused_capture: 3,
  uncovered_balance: 4,
  orphaned_approval: 5,
  expiring_authorization: 6,
  open_authorization: 7,
}

const NONE = { record_id: null, approval_id: null, movement: null, capture_on: null }

/**
 * The order list's "PayBright: needs attention" section: processes that cannot use the saved
 * settings (and so refuse all PayBright work), movements in doubt, contracts whose
 * void was refused, refused captures, approved contracts that never became an order,
 * authorizations close to expiry, and every other authorization awaiting capture with its expiry
 * date. Each entry says what to do, and which actions the list offers for it.
 */
export async function needsAttention(container: MedusaContainer, now = new Date()): Promise<PayBrightAttentionItem[]> {
  const items: PayBrightAttentionItem[] = []
  for (const authorization of await unlessSettingsUnreadable(() => listOpenAuthorizations(container, now))) {
    items.push({
      ...NONE,
      actions: [],
      kind: authorization.expiring ? "expiring_authorization" : "open_authorization",
      order_id: authorization.order_id ?? null,
      order_display_id: authorization.order_display_id ?? null,
      contract: null,
      amount: authorization.uncaptured,
      currency_code: authorization.currency_code,
      // Its sentence is the admin's to write, with the date in the merchant's language.
      message: null,
      said: null,
      expires_at: authorization.expires_at,
      capture_on: authorization.capture_on,
      at: authorization.authorized_at,
    })
  }
  items.push(
    ...(await uncoveredBalances(container)),
    ...(await refusedRecords(container)),
    ...(await inDoubtRecords(container)),
    ...(await unlessSettingsUnreadable(() => unplacedOrphans(container, now))),
    // Last: the sections above report it when this very process cannot use the settings.
    ...(await unreadableSettings(container, now))
  )
  // An order already listed for something to act on is not listed again as merely awaiting capture.
  const acted = new Set(items.filter((item) => item.kind !== "open_authorization").map((item) => item.order_id))
  return items
    .filter((item) => item.kind !== "open_authorization" || !acted.has(item.order_id))
    .sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || a.at.localeCompare(b.at))
}

/**
 * A section that needs the settings is left out where this process cannot use them: the entry
 * saying so takes its place.
 */
async function unlessSettingsUnreadable<T>(section: () => Promise<T[]>): Promise<T[]> {
  try {
    return await section()
  } catch (error) {
    if (error instanceof SettingsUnreadableError) return []
    throw error
  }
}

/** Each server or worker that reported it cannot use the saved settings: it refuses all PayBright work. */
async function unreadableSettings(container: MedusaContainer, now: Date): Promise<PayBrightAttentionItem[]> {
  return (await standingUnreadableReports(container, now.getTime())).map((report) => ({
    ...NONE,
    actions: [],
    kind: "settings_unreadable" as const,
    order_id: null,
    order_display_id: null,
    contract: null,
    amount: "0.00",
    currency_code: "",
    message: report.message,
    said: report.said,
    expires_at: null,
    at: report.at,
  }))
}

/**
 * Refused captures and voids not retried since: the merchant retries a capture; a void is
 * retried, or resolved as voided once the contract is cancelled in the portal.
 */
async function refusedRecords(container: MedusaContainer): Promise<PayBrightAttentionItem[]> {
  const refused = await moneyRecordsIn(container, "refused")
  // What could close them: their retries, and the captures of the same payments or contracts made since.
  const later = (await recordsModule(container).listPayBrightMoneyRecords(
    {
      $or: [
        { retry_of: refused.map((row) => row.id) },
        {
          kind: "capture",
          state: "done",
          payment_id: refused.flatMap((row) => (row.payment_id ? [row.payment_id] : [])),
        },
        {
          kind: "capture",
          state: "done",
          contract: refused.flatMap((row) => (row.contract ? [row.contract] : [])),
        },
      ],
    } as never,
    {
      select: ["id", "kind", "state", "retry_of", "payment_id", "contract", "fulfillment_id", "amount", "created_at"],
    }
  )) as unknown as MoneyRecordRow[]
  const known = new Set(refused.map((row) => row.id))
  const fullyCaptured = await nothingLeftToCapture(
    container,
    refused.flatMap((row) => (row.kind === "capture" && row.payment_id ? [row.payment_id] : []))
  )
  const open = openRefusals([...refused, ...later.filter((row) => !known.has(row.id))], (paymentId) =>
    fullyCaptured.has(paymentId)
  )
  return [
    ...(await attentionItems(
      container,
      open.filter((row) => row.kind === "capture"),
      "refused_capture"
    )),
    ...(await attentionItems(
      container,
      open.filter((row) => row.kind === "void"),
      "unvoided_contract"
    )),
  ]
}

/**
 * Orders an edit raised above what their PayBright contract covers: the contract was carried into
 * the order's new payment for what it covers (src/lib/carried-contract.ts), and the rest is
 * for the merchant to collect another way. Listed while the order still owes more than its live
 * PayBright payments can capture.
 */
async function uncoveredBalances(container: MedusaContainer): Promise<PayBrightAttentionItem[]> {
  const carried = await recordsModule(container).listPayBrightEvents(
    { kind: "contract.carried" },
    { order: { created_at: "DESC" }, take: 500 }
  )
  const latest = new Map<string, (typeof carried)[number]>()
  for (const event of carried) if (event.order_id && !latest.has(event.order_id)) latest.set(event.order_id, event)
  const short = [...latest.values()].filter((event) =>
    MathBN.gt(String((event.details as { uncovered?: string } | null)?.uncovered ?? "0"), 0)
  )
  if (!short.length) return []
  const { data: orders } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order",
    fields: [
      "id",
      "display_id",
      ...OWED_FIELDS,
      "payment_collections.payments.provider_id",
      "payment_collections.payments.amount",
      "payment_collections.payments.canceled_at",
      "payment_collections.payments.captures.amount",
    ],
    filters: { id: short.map((event) => event.order_id!) },
  })
  return (orders as any[]).flatMap((order) => {
    const owed = owedBy(order)
    if (owed === undefined) return []
    const capturable = (order.payment_collections ?? [])
      .flatMap((collection: any) => collection?.payments ?? [])
      .filter((payment: any) => isPayBright(payment.provider_id) && !payment.canceled_at)
      .reduce(
        (sum: ReturnType<typeof MathBN.convert>, payment: any) =>
          MathBN.add(sum, stillCapturable({ amount: payment.amount, captured: totalOf(payment.captures) }, owed)),
        MathBN.convert(0)
      )
    const uncovered = lenderAmount(MathBN.max(MathBN.sub(owed, capturable), 0))
    if (!MathBN.gt(uncovered, 0)) return []
    const event = latest.get(order.id)!
    return [
      {
        ...NONE,
        kind: "uncovered_balance" as const,
        order_id: order.id,
        order_display_id: order.display_id,
        contract: event.contract ?? null,
        amount: uncovered,
        currency_code: order.currency_code,
        ...spoken(uncoveredBalanceMessage(event.contract ?? "?", uncovered, order.currency_code)),
        expires_at: null,
        at: new Date(event.created_at as never).toISOString(),
        actions: [],
      },
    ]
  })
}

/** Movements in doubt: the lender may have acted; a person must look in the PayBright portal. */
async function inDoubtRecords(container: MedusaContainer): Promise<PayBrightAttentionItem[]> {
  return attentionItems(container, await moneyRecordsIn(container, "in_doubt"), "in_doubt")
}

/**
 * Approved contracts that never became an order, and whose void is not listed already (as
 * refused or in doubt): voided by the plugin once final where it can, else handled by the merchant.
 */
async function unplacedOrphans(container: MedusaContainer, now: Date): Promise<PayBrightAttentionItem[]> {
  const service = recordsModule(container)
  const orphans = (await allPages((paging) =>
    service.listPayBrightApprovals({ state: "orphaned" }, { order: { created_at: "ASC" }, ...paging })
  )) as ApprovalRecord[]
  if (orphans.length === 0) return []
  const listed = new Set(
    (
      (await service.listPayBrightMoneyRecords(
        { kind: "void", contract: orphans.map((orphan) => orphan.contract), state: ["refused", "in_doubt", "pending"] },
        { select: ["contract"] }
      )) as unknown as MoneyRecordRow[]
    ).map((row) => row.contract)
  )
  const voidTime = await orphanVoidTimes(container, now.getTime())
  return orphans
    .filter((orphan) => !listed.has(orphan.contract))
    .map((orphan) => {
      const voidAt = voidTime(orphan)
      return {
        ...NONE,
        kind: "orphaned_approval" as const,
        order_id: null,
        order_display_id: null,
        contract: orphan.contract,
        amount: orphan.amount,
        currency_code: orphan.currency_code,
        ...spoken(orphanMessage(orphan, voidAt)),
        expires_at: null,
        at: new Date(orphan.created_at).toISOString(),
        approval_id: orphan.id,
        actions: voidAt ? [] : ["mark_handled" as const],
      }
    })
}

function recordsModule(container: MedusaContainer) {
  return pluginRecords(container)
}

async function moneyRecordsIn(container: MedusaContainer, state: "refused" | "in_doubt") {
  return (await allPages((paging) =>
    recordsModule(container).listPayBrightMoneyRecords({ state }, { order: { created_at: "ASC" }, ...paging })
  )) as unknown as MoneyRecordRow[]
}

async function attentionItems(
  container: MedusaContainer,
  rows: MoneyRecordRow[],
  kind: "refused_capture" | "in_doubt" | "unvoided_contract"
): Promise<PayBrightAttentionItem[]> {
  const [orders, medusaCapture] = await Promise.all([
    displayIds(
      container,
      rows.flatMap((row) => (row.order_id ? [row.order_id] : []))
    ),
    // A refused capture is taken again with Medusa's own "Capture payment" where it would capture it.
    kind === "refused_capture"
      ? medusaCaptureOf(
          container,
          rows.flatMap((row) => (row.payment_id ? [row.payment_id] : []))
        )
      : new Map<string, string>(),
  ])
  return rows.map((row) => ({
    kind,
    order_id: row.order_id,
    order_display_id: row.order_id ? (orders.get(row.order_id) ?? null) : null,
    contract: row.contract,
    amount: lenderAmount(row.amount as never),
    currency_code: row.currency_code,
    ...(row.message
      ? { message: row.message, said: isSaid(row.said) ? row.said : null }
      : spoken(said(kind === "in_doubt" ? "attention_in_doubt" : "attention_refused"))),
    expires_at: null,
    at: new Date(row.created_at).toISOString(),
    record_id: row.id,
    approval_id: null,
    capture_on: null,
    // Rows here are not retried: refusedRecords leaves those out.
    actions: recordActions(row, false, row.payment_id ? medusaCapture.get(row.payment_id) : undefined),
    movement: row.kind,
  }))
}

async function displayIds(container: MedusaContainer, orderIds: string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>()
  if (orderIds.length === 0) return found
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order",
    fields: ["id", "display_id"],
    filters: { id: [...new Set(orderIds)] },
  })
  for (const order of data) found.set(order.id, order.display_id as number)
  return found
}
