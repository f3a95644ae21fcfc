import type { Logger } from "@medusajs/framework/types"
import { orphanMessage } from "../messages/approval-messages"
import type PayBrightModuleService from "../modules/paybright/service"
import type { ApprovalRecord } from "./approval-record"
import { orphanReleaseTimes } from "./orphan-timing"

/**
 * Tells the merchant an approval became an orphan: its event row (Needs attention and the
 * timeline) and an error in the log, each saying when the plugin releases it or what to do.
 */
export async function reportOrphan(
  container: { resolve(key: string): unknown },
  service: PayBrightModuleService,
  approval: ApprovalRecord
) {
  const message = orphanMessage(approval, (await orphanReleaseTimes(container as never))(approval))
  const logLine = `${message} [${approval.reason}]`
  await service.createPayBrightEvents({
    kind: "approval.orphaned",
    contract: approval.contract,
    message,
    details: {
      approval_id: approval.id,
      session_id: approval.session_id,
      cart_id: approval.cart_id,
      reason: approval.reason,
    },
  })
  ;(container.resolve("logger") as Logger).error(logLine)
}
