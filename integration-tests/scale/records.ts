import type Medusa from "@medusajs/js-sdk"
import type { PayBrightMoneyRecord } from "../../src/types/admin"
import { throughOutages } from "../../test-support/outage"

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
    refused: records.filter(
      (record) =>
        record.kind === kind && record.state === "refused" && !records.some((other) => other.retry_of === record.id)
    ),
  }
}
