import fs from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { handleApplicationResult } from "../../src/workflows/handle-application-result"

/**
 * Run with `medusa exec` as the store's server receiving the lender's first callback: delivers the
 * signed result in the file PAYBRIGHT_DELIVERY as the callback route does. The test kills this
 * process while Medusa's completion of the cart is under way; should it finish first, it says so
 * in `<file>.survived`.
 */
export default async function deliverThenDie({ container }: ExecArgs) {
  const file = process.env.PAYBRIGHT_DELIVERY!
  const fields = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>
  const { outcome } = await handleApplicationResult(container, fields, { lockTimeoutSeconds: 2 })
  fs.writeFileSync(`${file}.survived`, JSON.stringify(outcome))
}
