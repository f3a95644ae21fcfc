import fs from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { capturePaymentOnceWorkflow } from "../../src/workflows"

/**
 * Run with `medusa exec` as a second server process: once the test writes the fulfillment id into
 * the go-file, capture it (three times at once) as this process's own subscriber would, and
 * report the outcomes.
 */
export default async function race({ container }: ExecArgs) {
  const goFile = process.env.PAYBRIGHT_RACE_GO!
  fs.writeFileSync(`${goFile}.ready`, "ready")
  while (!fs.existsSync(goFile)) {
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  const fulfillmentId = fs.readFileSync(goFile, "utf8").trim()
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
  fs.writeFileSync(`${goFile}.done`, JSON.stringify(outcomes))
}
