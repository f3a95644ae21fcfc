import { MedusaError } from "@medusajs/framework/utils"
import type { LenderClient } from "../../../lender/client"
import { isCaptureSuccess, isRefundSuccess } from "../../../lender/schemas"
import type { PaymentData } from "../session-data"
import type { Settlement } from "./types"

/** In-store capture and refund at the lender, by the contract's gateway reference (spec §4.2). */
export class InStoreSettlement implements Settlement {
  constructor(
    private readonly lender: LenderClient,
    private readonly apiKey: string
  ) {}

  async confirm(payment: PaymentData): Promise<PaymentData> {
    return payment
  }

  async capture(payment: PaymentData, captureId: string, amount: string): Promise<PaymentData> {
    const response = await this.lender.capture(payment.gateway_reference, {
      x_account_id: this.apiKey,
      x_amount: amount,
      x_reference: captureId,
      x_currency: payment.currency,
      x_test: payment.test,
    })
    if (!isCaptureSuccess(response)) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `PayBright did not capture ${amount} ${payment.currency} on contract ${payment.gateway_reference}: ${response.x_message || response.x_result}. Nothing was captured; check the contract in the PayBright portal and try again.`
      )
    }
    return payment
  }

  async refund(payment: PaymentData, _refundId: string, amount: string): Promise<PaymentData> {
    const response = await this.lender.refund(payment.gateway_reference, amount)
    if (!isRefundSuccess(response)) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `PayBright did not refund ${amount} ${payment.currency} on contract ${payment.gateway_reference}: ${response.message}`
      )
    }
    return payment
  }
}
