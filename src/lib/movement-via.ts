import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { paymentDataSchema } from "./session-data"

/**
 * Who moves a payment's money, as the merchant knows it and as messages name it: "PayBright", or
 * the processor that charges the contract's virtual card (the one the payment was authorized for).
 */
export async function viaOf(container: MedusaContainer, paymentId: string | null): Promise<string> {
  if (!paymentId) return "PayBright"
  const [payment] = await container.resolve(Modules.PAYMENT).listPayments({ id: paymentId }, { select: ["id", "data"] })
  const data = paymentDataSchema.partial().safeParse(payment?.data ?? {})
  if (!data.success || data.data.capture_mode !== "virtual_card") return "PayBright"
  return data.data.card_processor ?? "the card processor"
}
