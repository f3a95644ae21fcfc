import { recordsWriter } from "../../lib/plugin-records"
import { MathBN } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { lenderMovement } from "../../lib/lender-cents"
import { paymentDataSchema } from "../../lib/session-data"
import { cancellationBlockedBy, openMovementOf } from "../../lib/in-doubt"

import { totalOf } from "../../lib/totals"
import { type OrderPayment } from "./order-paybright-payments"

/**
 * Before Medusa cancels an order, under its PayBright payments' locks: refused while a movement of
 * them (or of a payment an order change cancelled) is running or in doubt, naming it and what to do; otherwise the records of what Medusa is
 * about to do are written, with trigger `order_canceled`, for the provider to claim: the refund of
 * what was captured, and the void of a contract never captured. Records Medusa did not
 * claim (its own checks refused the cancellation) are removed when the request ends.
 */
export const prepareCancellationStep = createStep(
  "paybright-prepare-cancellation-step",
  async (input: { order_id: string; payments: OrderPayment[]; every_id: string[] }, { container }) => {
    const records = recordsWriter(container)
    if (input.every_id.length === 0) return new StepResponse([] as string[], [] as string[])
    const openMovement = await openMovementOf(records, input.every_id)
    if (openMovement) throw cancellationBlockedBy(openMovement)
    const prepared: string[] = []
    for (const payment of input.payments) {
      const data = paymentDataSchema.safeParse(payment.data)
      if (!data.success) continue
      const captured = totalOf(payment.captures)
      const refunded = totalOf(payment.refunds)
      // What Medusa's cancellation does: refund what is captured and not refunded, or cancel the payment.
      const movement = MathBN.gt(captured, 0)
        ? { kind: "refund" as const, medusa: MathBN.sub(captured, refunded), before: refunded, captured }
        : { kind: "void" as const, medusa: MathBN.convert(data.data.amount) }
      if (!MathBN.gt(movement.medusa, 0)) continue
      const lender =
        movement.kind === "refund"
          ? lenderMovement({ amount: movement.medusa, before: movement.before, remaining: movement.medusa }).amount
          : data.data.amount
      const record = await records.prepareMoneyRecord(
        {
          kind: movement.kind,
          trigger: "order_canceled",
          payment_id: payment.id,
          order_id: input.order_id,
          contract: data.data.gateway_reference,
          amount: lender,
          medusa_amount: movement.medusa.toString(),
          currency_code: payment.currency_code,
        },
        { state: "pending" }
      )
      prepared.push(record.id)
    }
    return new StepResponse(prepared, prepared)
  },
  async (prepared: string[] | undefined, { container }) => {
    if (prepared?.length) await recordsWriter(container).dropUnclaimedRecords(prepared)
  }
)
