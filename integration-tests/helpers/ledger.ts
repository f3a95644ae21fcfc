import { MathBN, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"

/** Medusa's captured and refunded totals for a payment, as two-decimal strings. */
export async function medusaTotals(container: MedusaContainer, paymentId: string) {
  const payments = container.resolve(Modules.PAYMENT)
  const payment = await payments.retrievePayment(paymentId, { relations: ["captures", "refunds"] })
  const sum = (rows: { raw_amount?: unknown; amount: unknown }[] = []) =>
    rows
      .reduce((total, row) => MathBN.add(total, (row.raw_amount ?? row.amount) as never), MathBN.convert(0))
      .toFixed(2)
  return {
    captured: sum(payment.captures as never),
    refunded: sum(payment.refunds as never),
    captures: (payment.captures ?? []).map((capture) => MathBN.convert(capture.amount as never).toFixed(2)),
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
