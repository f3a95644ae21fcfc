import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { lockTtlSeconds } from "../../lib/lock-lease"
import { movementLeaseSeconds } from "./movement-lease"
import { isPayBright } from "../../storefront/provider"

export type OrderPayment = {
  id: string
  provider_id: string
  currency_code: string
  canceled_at: string | null
  data: Record<string, unknown> | null
  captures: { amount: number }[]
  refunds: { amount: number }[]
}

/**
 * The order's PayBright payments Medusa may still cancel or refund, the ids of all of them (those
 * an order change cancelled too), and the lease their locks need.
 */
export const orderPayBrightPaymentsStep = createStep(
  "paybright-order-payments-step",
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
    const every = ((data[0]?.payment_collections ?? []) as { payments?: OrderPayment[] }[])
      .flatMap((collection) => collection.payments ?? [])
      .filter((payment) => isPayBright(payment.provider_id))
    const payments = every.filter((payment) => !payment.canceled_at)
    // Long enough for the refund of the payment that takes longest (one over several card charges).
    const leases = await Promise.all(payments.map((payment) => movementLeaseSeconds(container, payment.id, "refund")))
    return new StepResponse({
      payments,
      // A movement of a payment an order change cancelled is on the same contract: it holds the cancel too.
      every_id: every.map((payment) => payment.id),
      lease: Math.max(lockTtlSeconds(), ...leases),
    })
  }
)
