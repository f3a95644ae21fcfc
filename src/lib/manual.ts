import {
  type CardProcessor,
  type ChargeInput,
  type ChargeResult,
  type RefundInput,
  type RefundResult,
} from "./card-processor-types"

/**
 * For merchants whose processor has no adapter: the plugin charges nothing. A person reveals the
 * card in the admin, charges it on the store's own terminal, and then captures in Medusa, which
 * records the amount; refunds are recorded the same way and made on the terminal.
 */
export class ManualCardProcessor implements CardProcessor {
  readonly name = "manual"
  readonly chargesAutomatically = false

  async charge(input: ChargeInput): Promise<ChargeResult> {
    return { chargeId: `manual:${input.idempotencyKey}`, amount: input.amount }
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    return { refundId: `manual:${input.idempotencyKey}`, amount: input.amount }
  }
}
