import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { effectiveProviderOf } from "../../checkout/provider-settings"
import { PAYBRIGHT_MODULE } from "../../modules/paybright"
import type PayBrightModuleService from "../../modules/paybright/service"
import { lockTtlSeconds, refundLeaseSeconds } from "../lock-lease"

/**
 * The lease of the payment's lock for one capture or refund: the store's lease, or longer for a
 * refund that goes back to several virtual-card charges one after the other.
 */
export const movementLeaseStep = createStep(
  "paybright-movement-lease",
  async (input: { payment_id: string; movement: "capture" | "refund" }, { container }) => {
    if (input.movement !== "refund") return new StepResponse(lockTtlSeconds())
    const [payment] = await container
      .resolve(Modules.PAYMENT)
      .listPayments({ id: input.payment_id }, { select: ["id", "provider_id"] })
    const provider = payment?.provider_id.startsWith("pp_paybright_")
      ? await effectiveProviderOf(container, payment.provider_id)
      : undefined
    if (!provider) return new StepResponse(lockTtlSeconds())
    const charges = await container
      .resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
      .listPayBrightCardTransactions(
        { payment_id: input.payment_id, kind: "charge", state: "done" },
        { select: ["id"] }
      )
    return new StepResponse(refundLeaseSeconds(provider.options, charges.length))
  }
)
