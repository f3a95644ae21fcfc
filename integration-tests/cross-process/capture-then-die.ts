import type { ExecArgs } from "@medusajs/framework/types"
import { capturePaymentOnceWorkflow, reconcileMoneyRecordsWorkflow } from "../../src/workflows"
import { awaitSignal, signal } from "../helpers/go-file"

/**
 * Run with `medusa exec` as a separate server process. With PAYBRIGHT_KILL_GO set: waits for the
 * test to write a fulfillment id into that file, then captures it as this process's subscriber
 * would (the test kills the process while the lender holds the answer). With
 * PAYBRIGHT_RECONCILE_OUT set: runs the reconciliation once, as the scheduled job does after a
 * restart, and writes its report there.
 */
export default async function captureThenDie({ container }: ExecArgs) {
  const out = process.env.PAYBRIGHT_RECONCILE_OUT
  if (out) {
    const { result } = await reconcileMoneyRecordsWorkflow(container).run({ input: { stale_after_ms: 0 } })
    signal(out, JSON.stringify(result))
    return
  }
  const goFile = process.env.PAYBRIGHT_KILL_GO!
  signal(`${goFile}.ready`, "ready")
  const fulfillmentId = (await awaitSignal(goFile, 20)).trim()
  await capturePaymentOnceWorkflow(container).run({ input: { trigger: "shipment", fulfillment_id: fulfillmentId } })
  signal(`${goFile}.survived`, "the capture finished: the test meant to kill this process first")
}
