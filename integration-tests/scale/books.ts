import type Medusa from "@medusajs/js-sdk"
import { MathBN } from "@medusajs/framework/utils"
import { lenderAmount, lenderMovements } from "../../src/lib/lender-cents"
import { throughOutages } from "../../test-support/outage"

type Amount = Parameters<typeof MathBN.convert>[0]

/** One order's PayBright payment as Medusa records it; amounts in cents, two-decimal strings. */
export type MedusaBooks = {
  orderId: string
  sessionId: string
  paymentId: string
  gatewayReference?: string
  /** What the payment authorized (the order's total), in the lender's cents. */
  authorized: string
  captured: string
  refunded: string
  captures: string[]
  refunds: string[]
}

/** Every order of the store with its payment's captures and refunds, read from the admin API. */
export async function medusaBooks(admin: Medusa): Promise<MedusaBooks[]> {
  const books: MedusaBooks[] = []
  for (let offset = 0; ; offset += 100) {
    const { orders, count } = await throughOutages(() =>
      admin.admin.order.list({
        fields:
          "id,payment_collections.payments.id,payment_collections.payments.amount,payment_collections.payments.payment_session_id,payment_collections.payments.data,payment_collections.payments.captures.amount,payment_collections.payments.captures.created_at,payment_collections.payments.refunds.amount,payment_collections.payments.refunds.created_at",
        limit: 100,
        offset,
      })
    )
    for (const order of orders) {
      const payment = order.payment_collections?.[0]?.payments?.[0] as any
      if (!payment) continue
      // In cents, as the lender moved them (src/lib/lender-cents.ts).
      const captures = lenderMovements(byTime(payment.captures ?? []).map((row) => row.amount as Amount))
      const refunds = lenderMovements(byTime(payment.refunds ?? []).map((row) => row.amount as Amount))
      books.push({
        orderId: order.id,
        sessionId: payment.payment_session_id,
        paymentId: payment.id,
        gatewayReference: (payment.data as { gateway_reference?: string } | undefined)?.gateway_reference,
        authorized: lenderAmount(payment.amount as Amount),
        captured: sum(captures),
        refunded: sum(refunds),
        captures,
        refunds,
      })
    }
    if (offset + orders.length >= count || orders.length === 0) return books
  }
}

/**
 * Waits until the store says the payment session's approval is an order (placed by a callback, the
 * return or the store's own retry). An order merely present is not enough: Medusa writes it before
 * it authorizes the payment, and undoes it when the completion fails after that. Every waiting
 * shopper shares one reading of the approvals, taken at most every 2 s, so that waiting adds no load
 * to a store that is already slow.
 */
export async function orderForSession(admin: Medusa, sessionId: string, timeoutMs = 120_000): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const orderId = (await sharedReading(admin)).get(sessionId)
    if (orderId) return orderId
    if (Date.now() > deadline) throw new Error(`no order for payment session ${sessionId} within ${timeoutMs / 1000}s`)
    await new Promise((resolve) => setTimeout(resolve, 2000))
  }
}

let reading: { at: number; orders: Promise<Map<string, string>> } | undefined

function sharedReading(admin: Medusa): Promise<Map<string, string>> {
  if (!reading || Date.now() - reading.at > 2000) reading = { at: Date.now(), orders: orderedApprovals(admin) }
  return reading.orders
}

/** The order of each payment session whose approval the store marked ordered (every page of the admin's list). */
async function orderedApprovals(admin: Medusa): Promise<Map<string, string>> {
  const orders = new Map<string, string>()
  for (let offset = 0; ; offset += 100) {
    const { approvals, count } = await throughOutages(() =>
      admin.client.fetch<{ approvals: { session_id: string; order_id: string | null }[]; count: number }>(
        "/admin/paybright/approvals",
        { query: { state: "ordered", limit: 100, offset } }
      )
    )
    for (const approval of approvals) if (approval.order_id) orders.set(approval.session_id, approval.order_id)
    if (offset + 100 >= count) return orders
  }
}

function byTime<T extends { amount?: unknown; created_at?: unknown }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => new Date(String(a.created_at)).getTime() - new Date(String(b.created_at)).getTime())
}

/** Decimal sum of two-decimal strings, never floats. */
export function sum(amounts: string[]): string {
  return amounts.reduce((total, amount) => MathBN.add(total, amount), MathBN.convert(0)).toFixed(2)
}
