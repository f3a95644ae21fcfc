import { approvalWords } from "./approval-words"
import { pluginRecords, recordsWriter } from "./plugin-records"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { channelOf } from "./payment-channel"
import { settingsInForce } from "./provider-registry"
import { orderHolding } from "./find-checkout"
import { voidContract, type Voided } from "./void-attempt"
import { orderManagementCallbackUrl } from "./backend-routes"
import { readPaymentData, type PaymentData } from "./session-data"
import { moverOfPayment } from "./mover-of-payment"
import type { MoneyRecordRow } from "../modules/paybright/money-record-types"
import { testFlagOf, type ApprovalRecord } from "./approval-record"

type Container = MedusaContainer

/**
 * A contract's approval row, required: NOT_FOUND when the plugin kept none (every record and
 * void names a contract the plugin approved, so none is a broken record, not a question).
 */
export async function requireApprovalOfContract(container: Container, contract: string): Promise<ApprovalRecord> {
  const [approval] = (await pluginRecords(container).listPayBrightApprovals({ contract })) as ApprovalRecord[]
  if (!approval) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `PayBright contract ${contract} has no approval on record`)
  }
  return approval
}

export type VoidOutcome = { voided: Voided | null; skipped?: string }

/**
 * Under the cart's lock: voids an orphaned approval's contract, once it is certain that no order
 * holds it (an orphan is withdrawn from its session, but a payment carrying the contract would
 * mean it became an order after all). Done: the approval reads `voided`.
 */
export async function voidOrphan(container: Container, approvalId: string, retryOf?: string): Promise<VoidOutcome> {
  const approval = (await pluginRecords(container).retrievePayBrightApproval(approvalId)) as ApprovalRecord
  if (approval.state !== "orphaned") {
    return { voided: null, skipped: `contract ${approval.contract} is ${approval.state}` }
  }
  if (await orderHolding(container, approval)) {
    return { voided: null, skipped: `an order holds contract ${approval.contract}` }
  }
  const provider = approval.provider_id ? await settingsInForce(container, approval.provider_id) : undefined
  if (!provider) {
    return { voided: null, skipped: `the provider of contract ${approval.contract} is not registered` }
  }
  // Through the channel it was verified under (rows from before it was kept: today's settings).
  const channel = approval.channel ?? channelOf(provider.options)
  const contract: PaymentData = {
    session_id: approval.session_id,
    gateway_reference: approval.contract,
    amount: approval.amount,
    currency: approval.currency_code,
    test: testFlagOf(approval, provider.options.test),
    ...channel,
  }
  const routed = moverOfPayment(provider, contract)
  const voided = await voidContract({
    mover: "unavailable" in routed ? routed : routed.mover,
    contract,
    paymentId: null,
    paymentCollectionId: null,
    trigger: retryOf ? "retry" : "orphan",
    retryOf,
    callbackUrl: orderManagementCallbackUrl("options" in routed ? routed.options : provider.options),
  })
  if (voided.outcome === "done") {
    await concludeVoid(container, { contract: approval.contract, payment_id: null })
  }
  return { voided }
}

/**
 * Voids the contract of a cancelled order that no live payment held (cancellationVoidPlan), through
 * the channel it was authorized in, recorded on the payment it was last authorized on (Medusa
 * cancelled that payment already: a retry of a refused void finds nothing of Medusa's to cancel).
 */
export async function voidContractOfCancelledOrder(
  container: Container,
  from: { id: string; provider_id: string; data: PaymentData }
): Promise<Voided | null> {
  const provider = await settingsInForce(container, from.provider_id)
  if (!provider) return null
  const [payment] = await container
    .resolve(Modules.PAYMENT)
    .listPayments({ id: from.id }, { select: ["id", "payment_collection_id"] })
  const routed = moverOfPayment(provider, from.data)
  return voidContract({
    mover: "unavailable" in routed ? routed : routed.mover,
    contract: from.data,
    paymentId: from.id,
    paymentCollectionId: payment?.payment_collection_id ?? null,
    trigger: "order_canceled",
    callbackUrl: orderManagementCallbackUrl("options" in routed ? routed.options : provider.options),
  })
}

/**
 * Once an orphan is voided: Medusa's payments still live on its contract are cancelled, so that
 * Medusa's books say what the lender holds. Medusa keeps such a payment when it undoes a completion
 * after authorizing it (the plugin refuses that cancellation), and a cart changed and paid again
 * keeps it in the collection beside the order's own. The provider finds the contract voided and
 * calls no one. Run once the cart's lock is given back: under it, the provider takes a
 * cancellation for Medusa undoing a completion, and keeps the contract. Answers the payments cancelled.
 */
export async function cancelVoidedOrphanPayments(container: Container, contract: string): Promise<string[]> {
  const approval = await requireApprovalOfContract(container, contract)
  if (approval.state !== "voided") return []
  const payments = container.resolve(Modules.PAYMENT)
  const live = (
    await payments.listPayments({ payment_session_id: approval.session_id }, { select: ["id", "data", "canceled_at"] })
  ).filter((payment) => !payment.canceled_at && payment.data?.gateway_reference === contract)
  for (const payment of live) await payments.cancelPayment(payment.id)
  return live.map((payment) => payment.id)
}

/** A payment's void again, after a refusal: under the payment's lock, then Medusa cancels the payment. */
export async function voidPaymentAgain(container: Container, record: MoneyRecordRow): Promise<VoidOutcome> {
  const [payment] = await container
    .resolve(Modules.PAYMENT)
    .listPayments({ id: record.payment_id! }, { select: ["id", "provider_id", "data", "payment_collection_id"] })
  const provider = payment ? await settingsInForce(container, payment.provider_id) : undefined
  if (!payment || !provider) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `The payment of record ${record.id} is not a PayBright payment`)
  }
  const contract = readPaymentData(payment.data)
  const routed = moverOfPayment(provider, contract)
  if ("unavailable" in routed) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `PayBright cannot void this contract: ${routed.unavailable}.`)
  }
  const voided = await voidContract({
    mover: routed.mover,
    contract,
    paymentId: payment.id,
    paymentCollectionId: payment.payment_collection_id,
    trigger: "retry",
    retryOf: record.id,
    callbackUrl: orderManagementCallbackUrl(routed.options),
  })
  if (voided.outcome === "done") {
    await concludeVoid(container, record)
  }
  return { voided }
}

/**
 * What follows a void the lender made (by the plugin, or as a person found in the portal): Medusa
 * cancels the payment on the contract, or the orphaned approval reads `voided`.
 */
export async function concludeVoid(
  container: Container,
  record: Pick<MoneyRecordRow, "contract" | "payment_id">
): Promise<void> {
  if (record.payment_id) {
    const payments = container.resolve(Modules.PAYMENT)
    const [payment] = await payments.listPayments({ id: record.payment_id }, { select: ["id", "canceled_at"] })
    // The provider finds the void done and calls no one.
    if (payment && !payment.canceled_at) await payments.cancelPayment(payment.id)
    return
  }
  await recordsWriter(container).markApprovalVoided(record.contract!, approvalWords(container))
}
