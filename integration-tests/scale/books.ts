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
 * Waits until an order exists for the payment session (placed by a callback or the return). Every
 * waiting shopper shares one reading of the orders, taken at most every 2 s, so that waiting adds
 * no load to a store that is already slow.
 */
export async function orderForSession(admin: Medusa, sessionId: string, timeoutMs = 120_000): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = (await sharedReading(admin)).find((books) => books.sessionId === sessionId)
    if (found) return found.orderId
    if (Date.now() > deadline) throw new Error(`no order for payment session ${sessionId} within ${timeoutMs / 1000}s`)
    await new Promise((resolve) => setTimeout(resolve, 2000))
  }
}

let reading: { at: number; books: Promise<MedusaBooks[]> } | undefined

function sharedReading(admin: Medusa): Promise<MedusaBooks[]> {
  if (!reading || Date.now() - reading.at > 2000) reading = { at: Date.now(), books: medusaBooks(admin) }
  return reading.books
}

function byTime<T extends { amount?: unknown; created_at?: unknown }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => new Date(String(a.created_at)).getTime() - new Date(String(b.created_at)).getTime())
}

/** Decimal sum of two-decimal strings, never floats. */
export function sum(amounts: string[]): string {
  return amounts.reduce((total, amount) => MathBN.add(total, amount), MathBN.convert(0)).toFixed(2)
}
