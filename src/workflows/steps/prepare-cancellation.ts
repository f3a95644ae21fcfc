import { ContainerRegistrationKeys, MathBN, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cancelBlockedMessage } from "../../messages/merchant-messages"
import { lenderMovement } from "../../money/lender-cents"
import { paymentDataSchema } from "../../settlement/session-data"
import { UNSETTLED } from "../../money/money-attempt"
import { lenderAmount } from "../../money/lender-cents"
import type { MoneyRecordRow } from "../../money/money-record-types"
import { lockTtlSeconds } from "../lock-lease"
import { movementLeaseSeconds } from "./movement-lease"
import { recordsOf } from "./record-queries"
import { isPayBright } from "../../storefront/provider"
import { totalOf } from "../../money/totals"

type OrderPayment = {
  id: string
  provider_id: string
  currency_code: string
  canceled_at: string | null
  data: Record<string, unknown> | null
  captures: { amount: number }[]
  refunds: { amount: number }[]
}

/** The order's PayBright payments Medusa may still cancel or refund, and the lease their locks need. */
export const orderPayBrightPaymentsStep = createStep(
  "paybright-order-paybright-payments-step",
  async (input: { order_id: string }, { container }) => {
    const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
      entity: "order",
      fields: [
        "payment_collections.payments.id",
        "payment_collections.payments.provider_id",
        "payment_collections.payments.currency_code",
        "payment_collections.payments.canceled_at",
        "payment_collections.payments.data",
        "payment_collections.payments.captures.amount",
        "payment_collections.payments.refunds.amount",
      ],
      filters: { id: input.order_id },
    })
    const payments = ((data[0]?.payment_collections ?? []) as { payments?: OrderPayment[] }[])
      .flatMap((collection) => collection.payments ?? [])
      .filter((payment) => isPayBright(payment.provider_id) && !payment.canceled_at)
    // Long enough for the refund of the payment that takes longest (one over several card charges).
    const leases = await Promise.all(payments.map((payment) => movementLeaseSeconds(container, payment.id, "refund")))
    return new StepResponse({ payments, lease: Math.max(lockTtlSeconds(), ...leases) })
  }
)

/**
 * Before Medusa cancels an order, under its PayBright payments' locks: refused while a movement of
 * them is running or in doubt, naming it and what to do; otherwise the records of what Medusa is
 * about to do are written, with trigger `order_canceled`, for the provider to claim: the refund of
 * what was captured, and the release (void) of a contract never captured. Records Medusa did not
 * claim (its own checks refused the cancellation) are removed when the request ends.
 */
export const prepareCancellationStep = createStep(
  "paybright-prepare-cancellation-step",
  async (input: { order_id: string; payments: OrderPayment[] }, { container }) => {
    const records = recordsOf(container)
    const ids = input.payments.map((payment) => payment.id)
    if (ids.length === 0) return new StepResponse([] as string[], [] as string[])
    const [unsettled] = (await records.listPayBrightMoneyRecords({ payment_id: ids, ...UNSETTLED } as never, {
      take: 1,
      order: { created_at: "ASC" },
    })) as unknown as MoneyRecordRow[]
    if (unsettled) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        cancelBlockedMessage({
          id: unsettled.id,
          movement: unsettled.kind,
          state: unsettled.state as "pending" | "in_doubt",
          amount: lenderAmount(unsettled.amount as never),
          currency: unsettled.currency_code,
          contract: unsettled.contract ?? "?",
        })
      )
    }
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
      const record = (await records.createPayBrightMoneyRecords({
        kind: movement.kind,
        trigger: "order_canceled",
        payment_id: payment.id,
        order_id: input.order_id,
        contract: data.data.gateway_reference,
        amount: lender as never,
        medusa_amount: movement.medusa.toString() as never,
        currency_code: payment.currency_code,
        state: "pending",
      })) as unknown as MoneyRecordRow
      prepared.push(record.id)
    }
    return new StepResponse(prepared, prepared)
  },
  async (prepared: string[] | undefined, { container }) => {
    if (prepared?.length) await recordsOf(container).deletePayBrightMoneyRecords(prepared)
  }
)

/** Once the cancellation's request is answered: the prepared records Medusa did not claim never started. */
export const dropUnclaimedStep = createStep(
  "paybright-drop-unclaimed-step",
  async (input: { record_ids: string[] }, { container }) => {
    if (input.record_ids.length === 0) return new StepResponse(0)
    const records = recordsOf(container)
    const unclaimed = (await records.listPayBrightMoneyRecords(
      { id: input.record_ids, state: "pending", medusa_id: null },
      { select: ["id"] }
    )) as unknown as { id: string }[]
    if (unclaimed.length) await records.deletePayBrightMoneyRecords(unclaimed.map((row) => row.id))
    return new StepResponse(unclaimed.length)
  }
)
