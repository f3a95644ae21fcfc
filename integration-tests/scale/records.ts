import type Medusa from "@medusajs/js-sdk"
import type { PayBrightAttentionAction, PayBrightMoneyRecord } from "../../src/lib/admin-types"
import { throughOutages } from "../../test-support/outage"

/** A money record as the admin's records route answers it: with what the merchant may do about it. */
type AdminRecord = PayBrightMoneyRecord & { actions?: PayBrightAttentionAction[] }

/** A payment's money records as the admin lists them. */
export async function recordsOf(admin: Medusa, paymentId: string): Promise<PayBrightMoneyRecord[]> {
  const { records } = await throughOutages(() =>
    admin.client.fetch<{ records: PayBrightMoneyRecord[] }>(`/admin/paybright/payments/${paymentId}/records`)
  )
  return records
}

/** A kind's records still running, in doubt, or refused and not yet tried again (nothing moved). */
export function unconcluded(records: PayBrightMoneyRecord[], kind: PayBrightMoneyRecord["kind"]) {
  return {
    pending: records.filter((record) => record.kind === kind && record.state === "pending"),
    inDoubt: records.filter((record) => record.kind === kind && record.state === "in_doubt"),
    // As the merchant sees them: the refusals whose money the admin still offers to take (not
    // retried, and not made good by a later capture).
    refused: records.filter(
      (record) => record.kind === kind && record.state === "refused" && takingOffered(record) !== undefined
    ),
  }
}

/**
 * How the admin offers to take a refused capture's money: Medusa's own "Capture payment" when that
 * button would capture it, else the plugin's retry of the refusal. Undefined: nothing is offered
 * (retried already, made good by a later capture, or not a capture).
 */
export function takingOffered(record: PayBrightMoneyRecord): "capture_in_medusa" | "retry_capture" | undefined {
  const actions = (record as AdminRecord).actions ?? []
  return actions.includes("capture_in_medusa")
    ? "capture_in_medusa"
    : actions.includes("retry_capture")
      ? "retry_capture"
      : undefined
}
