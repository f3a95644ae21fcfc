import type { VerifiedApproval } from "../modules/paybright/records"
import type { PayBrightApprovalRecord } from "./admin-types"
import type { PaymentChannel } from "./payment-channel"

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

/** A verified approval as a delivery brings it, with the channel its void goes through. */
export type RecordApprovalInput = VerifiedApproval & { channel: PaymentChannel }

/**
 * The application's own test flag, as the lender signed it: the contract's captures and voids
 * carry it whatever the settings say later. Rows from before the signed result was kept: `fallback`
 * (today's settings).
 */
export function testFlagOf(approval: Pick<ApprovalRecord, "lender_result">, fallback: boolean): boolean {
  const signed = approval.lender_result?.x_test
  return signed === undefined ? fallback : signed.trim().toLowerCase() === "true"
}
