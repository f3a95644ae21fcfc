import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import type { MoneyRecordRow } from "../modules/paybright/money-record-types"
import type { PayBrightAttentionAction } from "../lib/admin-types"
import { OWED_FIELDS, owedBy, stillCapturable, totalOf } from "../lib/totals"
import { lenderAmount } from "../lib/lender-cents"
import { ordersOfCollections } from "../lib/medusa-links"

/**
 * What a merchant can do about a capture, refund or void record, wherever the admin shows it:
 * resolve what is in doubt; take again the money of a refused capture nobody retried yet; retry a
 * refused void, or resolve it as voided once the contract is cancelled in the PayBright portal (a
 * void the lender's API could not even be asked for, having no reference, can only be resolved
 * so).
 *
 * One way to take a refused capture's money: when Medusa's own "Capture payment" would capture it
 * (`medusaCapture`, what that button captures on the record's payment, covers no more than the
 * record asked for), that button is the way, and its capture makes the refusal good
 * (src/lib/open-refusals.ts); the admin then offers no retry beside it. Otherwise (a parcel's
 * part of the authorization, or the rest once part is captured) the retry of the refused amount is.
 */
export function recordActions(
  row: Pick<MoneyRecordRow, "kind" | "state" | "reference" | "amount">,
  retried: boolean,
  medusaCapture?: string
): PayBrightAttentionAction[] {
  if (row.state === "in_doubt") return ["resolve"]
  if (row.state !== "refused" || retried) return []
  if (row.kind === "capture") {
    return medusaCapture !== undefined && MathBN.gte(row.amount as never, medusaCapture)
      ? ["capture_in_medusa"]
      : ["retry_capture"]
  }
  if (row.kind === "void") return row.reference ? ["retry_void", "resolve"] : ["resolve"]
  return []
}

/**
 * What Medusa's own "Capture payment" would capture on each of these payments, by payment id, in
 * the lender's cents: everything still capturable on a live payment nothing is captured on yet
 * (the button asks for the whole payment). A payment partly captured is absent: Medusa refuses the
 * whole amount there, so its button captures nothing; so is a cancelled one.
 */
export async function medusaCaptureOf(container: MedusaContainer, paymentIds: string[]): Promise<Map<string, string>> {
  const takes = new Map<string, string>()
  const ids = [...new Set(paymentIds)]
  if (ids.length === 0) return takes
  const payments = await container
    .resolve(Modules.PAYMENT)
    .listPayments(
      { id: ids },
      { relations: ["captures"], select: ["id", "amount", "canceled_at", "payment_collection_id"] }
    )
  const untouched = payments.filter((payment) => !payment.canceled_at && MathBN.eq(totalOf(payment.captures), 0))
  if (untouched.length === 0) return takes
  // What the order still owes caps it, as the order panel's remainder.
  const orders = await ordersOfCollections<{
    id: string
    status?: string
    summary?: Record<string, unknown> | null
    total: unknown
  }>(
    container.resolve(ContainerRegistrationKeys.QUERY),
    untouched.map((payment) => payment.payment_collection_id),
    OWED_FIELDS
  )
  for (const payment of untouched) {
    const remaining = stillCapturable(
      { amount: payment.amount as never, captured: 0 },
      owedBy(orders.get(payment.payment_collection_id))
    )
    if (MathBN.gt(remaining, 0)) takes.set(payment.id, lenderAmount(remaining))
  }
  return takes
}
