import { MathBN, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { lenderAmount, lenderMovements } from "../../src/lib/lender-cents"

/**
 * Medusa's captured and refunded totals for a payment in cents, as the lender's ledger is compared
 * with them (src/lib/lender-cents.ts), and each capture in cents, oldest first.
 */
export async function medusaTotals(container: MedusaContainer, paymentId: string) {
  const payments = container.resolve(Modules.PAYMENT)
  const payment = await payments.retrievePayment(paymentId, { relations: ["captures", "refunds"] })
  const exact = (row: { raw_amount?: unknown; amount: unknown }) => (row.raw_amount ?? row.amount) as never
  const sum = (rows: { raw_amount?: unknown; amount: unknown }[] = []) =>
    rows.reduce((total, row) => MathBN.add(total, exact(row)), MathBN.convert(0))
  const captures = [
    ...((payment.captures ?? []) as never as { raw_amount?: unknown; amount: unknown; created_at: Date }[]),
  ].sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime())
  return {
    captured: lenderAmount(sum(captures)),
    refunded: lenderAmount(sum(payment.refunds as never)),
    captures: lenderMovements(captures.map(exact)),
  }
}

/** The order's PayBright payment, as the admin sees it. */
export async function orderPayment(container: MedusaContainer, orderId: string) {
  const query = container.resolve("query")
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "total",
      "payment_collections.payments.id",
      "payment_collections.payments.data",
      "payment_collections.payments.amount",
    ],
    filters: { id: orderId },
  })
  const payment = data[0]?.payment_collections?.[0]?.payments?.[0]
  if (!payment) {
    throw new Error(`order ${orderId} has no payment`)
  }
  return { id: payment.id as string, data: payment.data as Record<string, any>, total: data[0].total }
}
