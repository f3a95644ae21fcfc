import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { settleUnplacedApprovals } from "../checkout/settle-unplaced-approvals"

/**
 * Every minute: an approval the deliveries left without an order is tried again by the store
 * itself, and settled for good once its grace period is over, so no approved contract stays
 * without an order or an alert for the merchant.
 */
export default async function paybrightUnplacedApprovals(container: MedusaContainer) {
  const settled = await settleUnplacedApprovals(container)
  if (settled.placed || settled.orphaned) {
    ;(container.resolve("logger") as Logger).info(
      `PayBright: unplaced approvals settled: ${settled.placed} ordered, ${settled.orphaned} reported, ${settled.waiting} still waiting`
    )
  }
}

export const config = {
  name: "paybright-unplaced-approvals",
  schedule: "* * * * *",
}
