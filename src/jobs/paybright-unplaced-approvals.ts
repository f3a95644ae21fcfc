import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { voidFinalOrphans } from "../sweeps/void-orphans"
import { sweepUnplacedApprovals } from "../sweeps/sweep-unplaced-approvals"

/**
 * Every minute: an approval the deliveries left without an order is tried again by the store
 * itself, and decided for good once its grace period is over, so no approved contract stays
 * without an order or an alert for the merchant; an orphan that is final is then voided at the
 * lender, so the shopper carries no loan.
 */
export default async function paybrightUnplacedApprovals(container: MedusaContainer) {
  const logger = container.resolve("logger") as Logger
  const swept = await sweepUnplacedApprovals(container)
  if (swept.reopened || swept.placed || swept.orphaned) {
    logger.info(
      `PayBright: unplaced approvals swept: ${swept.reopened} reopened (their order vanished), ${swept.placed} ordered, ${swept.orphaned} reported, ${swept.waiting} still waiting`
    )
  }
  const orphans = await voidFinalOrphans(container)
  if (orphans.voided || orphans.notVoided) {
    logger.info(
      `PayBright: orphaned contracts: ${orphans.voided} voided, ${orphans.notVoided} not voided (listed under needs attention)`
    )
  }
}

export const config = {
  name: "paybright-unplaced-approvals",
  schedule: "* * * * *",
}
