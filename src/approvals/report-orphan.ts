import type { Logger } from "@medusajs/framework/types"
import { orphanMessage } from "../messages/approval-messages"
import type { DescribeOrphan } from "../modules/paybright/service"
import type { ApprovalRecord } from "./approval-record"
import { orphanReleaseTimes } from "./orphan-timing"

type Resolver = { resolve(key: string): unknown }

/**
 * What the merchant reads of an approval that became an orphan (its event row, for Needs attention
 * and the timeline): what happened, and when the plugin releases it or what to do.
 */
export function describeOrphan(container: Resolver): DescribeOrphan {
  return async (approval) =>
    orphanMessage(
      approval as ApprovalRecord,
      (await orphanReleaseTimes(container as never))(approval as ApprovalRecord)
    )
}

/** The same sentence in the log, at error level, once the orphan is recorded. */
export function logOrphan(container: Resolver, approval: Pick<ApprovalRecord, "reason">, message: string) {
  ;(container.resolve("logger") as Logger).error(`${message} [${approval.reason}]`)
}
