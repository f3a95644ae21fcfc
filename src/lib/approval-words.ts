import type { Logger } from "@medusajs/framework/types"
import {
  approvalHandledMessage,
  approvalVerifiedMessage,
  approvalVoidedMessage,
  orphanMessage,
} from "./approval-messages"
import type { ApprovalWords } from "../modules/paybright/records"
import type { ApprovalRecord } from "./approval-record"
import { orphanVoidTimes } from "./orphan-timing"

type Resolver = { resolve(key: string): unknown }

/**
 * What the merchant reads of an approval's moves, for the event rows the module service writes
 * with them: an orphan says what happened, and when the plugin voids it or what to do.
 */
export function approvalWords(container: Resolver): ApprovalWords {
  return {
    verified: approvalVerifiedMessage,
    orphaned: async (approval) =>
      orphanMessage(
        approval as ApprovalRecord,
        (await orphanVoidTimes(container as never))(approval as ApprovalRecord)
      ),
    voided: approvalVoidedMessage,
    handled: approvalHandledMessage,
  }
}

/** The same sentence in the log, at error level, once the orphan is recorded. */
export function logOrphan(container: Resolver, approval: Pick<ApprovalRecord, "reason">, message: string) {
  ;(container.resolve("logger") as Logger).error(`${message} [${approval.reason}]`)
}
