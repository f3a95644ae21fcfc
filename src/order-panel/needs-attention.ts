import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { listOpenAuthorizations } from "../capture/authorization-expiry"
import { PAYBRIGHT_MODULE } from "../modules/paybright"
import type PayBrightModuleService from "../modules/paybright/service"
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

async function refusedCaptures(container: MedusaContainer): Promise<PayBrightAttentionItem[]> {
  const module = container.resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
  const failed = await module.listPayBrightCaptures({ status: "failed" }, { order: { updated_at: "ASC" }, take: 100 })
  const orders = await displayIds(
    container,
    failed.map((row) => row.order_id)
  )
  return failed.map((row) => ({
    kind: "refused_capture" as const,
    order_id: row.order_id,
    order_display_id: orders.get(row.order_id) ?? null,
    contract: null,
    amount: MathBN.convert(row.amount as never).toFixed(2),
    currency_code: row.currency_code,
    message: `Capture at ${row.trigger} refused: ${row.last_error ?? "no reason given"} Retry it from the order.`,
    expires_at: null,
    at: new Date(row.updated_at as never).toISOString(),
  }))
}

/**
 * Captures and refunds in doubt (the lender may have acted; a person must look in the PayBright
 * portal). Nothing records that state yet: when money records with in-doubt states exist, list
 * them here.
 */
async function inDoubtRecords(_container: MedusaContainer): Promise<PayBrightAttentionItem[]> {
  return []
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
