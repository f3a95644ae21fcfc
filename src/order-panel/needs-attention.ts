import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { listOpenAuthorizations } from "../capture/authorization-expiry"
import { PAYBRIGHT_MODULE } from "../modules/paybright"
import type PayBrightModuleService from "../modules/paybright/service"
import type { MoneyRecordRow } from "../records/money-record-types"
import type { PayBrightAttentionItem } from "../types/admin"

/** Most urgent first: what may have moved money, then what was refused, then what expires. */
const ORDER: Record<PayBrightAttentionItem["kind"], number> = {
  in_doubt: 0,
  refused_capture: 1,
  orphaned_approval: 2,
  expiring_authorization: 3,
  open_authorization: 4,
}

/**
 * The order list's "PayBright: needs attention" section: captures or refunds in doubt, refused
 * captures, authorizations close to expiry, and every other authorization awaiting capture with
 * its expiry date. Approvals that never became an order come from the approvals route and are
 * merged in by the admin.
 */
export async function needsAttention(container: MedusaContainer, now = new Date()): Promise<PayBrightAttentionItem[]> {
  const items: PayBrightAttentionItem[] = []
  for (const authorization of await listOpenAuthorizations(container, now)) {
    items.push({
      kind: authorization.expiring ? "expiring_authorization" : "open_authorization",
      order_id: authorization.order_id ?? null,
      order_display_id: authorization.order_display_id ?? null,
      contract: null,
      amount: authorization.uncaptured,
      currency_code: authorization.currency_code,
      message: authorization.expiring
        ? `Close to expiry: PayBright cancels the uncaptured ${authorization.uncaptured} on ${authorization.expires_at.slice(0, 10)}. Ship and capture it, or cancel the order.`
        : `Awaiting capture; PayBright cancels what is not captured by ${authorization.expires_at.slice(0, 10)}.`,
      expires_at: authorization.expires_at,
      at: authorization.authorized_at,
    })
  }
  items.push(...(await refusedCaptures(container)), ...(await inDoubtRecords(container)))
  // An order already listed for something to act on is not listed again as merely awaiting capture.
  const acted = new Set(items.filter((item) => item.kind !== "open_authorization").map((item) => item.order_id))
  return items
    .filter((item) => item.kind !== "open_authorization" || !acted.has(item.order_id))
    .sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || a.at.localeCompare(b.at))
}

/** Captures refused and not retried since: the merchant retries them from the order. */
async function refusedCaptures(container: MedusaContainer): Promise<PayBrightAttentionItem[]> {
  const refused = await moneyRecordsIn(container, "refused")
  const retried = new Set(
    (
      (await recordsModule(container).listPayBrightMoneyRecords(
        { retry_of: refused.map((row) => row.id) },
        { select: ["retry_of"] }
      )) as unknown as MoneyRecordRow[]
    ).map((row) => row.retry_of)
  )
  return attentionItems(
    container,
    refused.filter((row) => row.kind === "capture" && !retried.has(row.id)),
    "refused_capture"
  )
}

/** Captures and refunds in doubt: the lender may have acted; a person must look in the PayBright portal. */
async function inDoubtRecords(container: MedusaContainer): Promise<PayBrightAttentionItem[]> {
  return attentionItems(container, await moneyRecordsIn(container, "in_doubt"), "in_doubt")
}

function recordsModule(container: MedusaContainer) {
  return container.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
}

async function moneyRecordsIn(container: MedusaContainer, state: "refused" | "in_doubt") {
  return (await recordsModule(container).listPayBrightMoneyRecords(
    { state },
    { order: { created_at: "ASC" }, take: 100 }
  )) as unknown as MoneyRecordRow[]
}

async function attentionItems(
  container: MedusaContainer,
  rows: MoneyRecordRow[],
  kind: "refused_capture" | "in_doubt"
): Promise<PayBrightAttentionItem[]> {
  const orders = await displayIds(
    container,
    rows.flatMap((row) => (row.order_id ? [row.order_id] : []))
  )
  return rows.map((row) => ({
    kind,
    order_id: row.order_id,
    order_display_id: row.order_id ? (orders.get(row.order_id) ?? null) : null,
    contract: row.contract,
    amount: MathBN.convert(row.amount as never).toFixed(2),
    currency_code: row.currency_code,
    message:
      row.message ?? (kind === "in_doubt" ? "In doubt: check the PayBright portal, then resolve it." : "Refused."),
    expires_at: null,
    at: new Date(row.created_at).toISOString(),
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
