import type { OrphanReason } from "../modules/paybright/approval-reasons"
import { PAYBRIGHT_MODULE } from "../modules/paybright/index"
import type PayBrightModuleService from "../modules/paybright/service"
import type { PayBrightApprovalRecord } from "../types/admin"
import type { PaymentChannel } from "../settlement/payment-channel"

/** An approval row as the module answers it (dates as dates). */
export type ApprovalRecord = Omit<PayBrightApprovalRecord, "created_at"> & {
  created_at: Date | string
  /** The registration it was verified for; absent on rows written before it was kept. */
  provider_id?: string | null
  /** The signed result as it arrived; absent on rows written before it was kept. */
  lender_result?: Record<string, string> | null
  /** What the last attempt to place its order answered, for an approval the store gave up placing. */
  placement_error?: string | null
  /** The channel it was verified under; absent on rows written before it was kept. */
  channel?: PaymentChannel | null
}

export type RecordApprovalInput = {
  contract: string
  session_id: string
  /** The registration the approval was verified for: which credentials release it if it is orphaned. */
  provider_id: string
  cart_id: string | null
  amount: string
  currency_code: string
  /** The signed x_ fields as they arrived, to deliver them again (see PayBrightApproval). */
  lender_result: Record<string, string>
  /** Set when the approval can already not become an order (its session is gone, …). */
  orphan_reason?: OrphanReason | null
  /** The channel the registration verified it under: its release goes through it. */
  channel: PaymentChannel
}

export function approvalsOf(container: { resolve(key: string): unknown }) {
  return container.resolve(PAYBRIGHT_MODULE) as PayBrightModuleService
}
