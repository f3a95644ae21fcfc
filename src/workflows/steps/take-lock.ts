import { acquireLockStep, releaseLockStep } from "@medusajs/core-flows"
import { transform, type WorkflowData } from "@medusajs/framework/workflows-sdk"
import { lockTtlSeconds, lockWaitSeconds } from "../capture-payment-once"
import { lockOwnerStep } from "./lock-owner"

/**
 * In a workflow's composition: takes a plugin lock with an owner made for this run (see
 * lockOwnerStep), waiting and leasing as long as the plugin's settings say. Answers the owner;
 * `giveLock` releases it at the end of the workflow (a failure releases it by compensation).
 */
export function takeLock(key: WorkflowData<string>): WorkflowData<string> {
  const owner = lockOwnerStep({ key })
  acquireLockStep({
    key,
    ownerId: owner,
    timeout: transform({ key }, () => lockWaitSeconds()),
    ttl: transform({ key }, () => lockTtlSeconds()),
  })
  return owner
}

export function giveLock(key: WorkflowData<string>, owner: WorkflowData<string>) {
  releaseLockStep({ key, ownerId: owner })
}
