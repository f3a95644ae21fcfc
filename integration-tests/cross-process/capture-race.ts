import type { ExecArgs } from "@medusajs/framework/types"
import { capturePaymentOnceWorkflow } from "../../src/workflows"
import { awaitSignal, signal } from "../helpers/go-file"

/**
 * Run with `medusa exec` as a second server process: once the test writes the fulfillment id into
 * the go-file, capture it (three times at once) as this process's own subscriber would, and
 * report the outcomes.
 */
export default async function race({ container }: ExecArgs) {
  const goFile = process.env.PAYBRIGHT_RACE_GO!
  signal(`${goFile}.ready`, "ready")
  const fulfillmentId = (await awaitSignal(goFile)).trim()
  const outcomes = await Promise.all(
    [1, 2, 3].map(() =>
      capturePaymentOnceWorkflow(container)
        .run({ input: { trigger: "shipment", fulfillment_id: fulfillmentId } })
        .then(({ result }) => result)
        .catch((error) => ({
          status: "error",
          message: String(error),
        }))
    )
  )
  signal(`${goFile}.done`, JSON.stringify(outcomes))
}
