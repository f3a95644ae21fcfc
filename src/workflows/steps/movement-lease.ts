import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { settingsInForce } from "../../lib/provider-registry"
import { pluginRecords } from "../../lib/plugin-records"
import { lockTtlSeconds, refundLeaseSeconds } from "../../lib/lock-lease"
import { isPayBright } from "../../storefront/provider"

/**
 * The lease of the payment's lock for one capture or refund: the store's lease, or longer for a
 * refund that goes back to several virtual-card charges one after the other.
 */
export const movementLeaseStep = createStep(
  "paybright-movement-lease-step",
  async (input: { payment_id: string; movement: "capture" | "refund" }, { container }) =>
    new StepResponse(await movementLeaseSeconds(container, input.payment_id, input.movement))
)

/** The lease a capture or refund of this payment needs (see movementLeaseStep). */
export async function movementLeaseSeconds(
  container: MedusaContainer,
  paymentId: string,
  movement: "capture" | "refund"
): Promise<number> {
  if (movement !== "refund") return lockTtlSeconds()
  const [payment] = await container
    .resolve(Modules.PAYMENT)
    .listPayments({ id: paymentId }, { select: ["id", "provider_id"] })
  const provider = isPayBright(payment?.provider_id) ? await settingsInForce(container, payment.provider_id) : undefined
  if (!provider) return lockTtlSeconds()
  const charges = await pluginRecords(container).listPayBrightCardTransactions(
    { payment_id: paymentId, kind: "charge", state: "done" },
    { select: ["id"] }
  )
  return refundLeaseSeconds(provider.options, charges.length)
}
