import type { MedusaContainer } from "@medusajs/framework/types"
import { sweepStaleApprovals } from "../checkout/sweep-stale-approvals"

/** Every five minutes: no approved contract stays without an order or an alert for the merchant. */
export default async function paybrightStaleApprovals(container: MedusaContainer) {
  await sweepStaleApprovals(container)
}

export const config = {
  name: "paybright-stale-approvals",
  schedule: "*/5 * * * *",
}
